import type { IncomingMessage } from 'node:http';
import proxyAddr from '@fastify/proxy-addr';

/**
 * Which proxies in front of the server are believed about the client's address and protocol
 * (`TRUST_PROXY`). Each proxy that appends to `X-Forwarded-For` (nginx, HAProxy, every cloud load
 * balancer) adds the address it saw on the right; everything to the left of it was written by
 * whoever sent the request, the client included. So the client's address is the one the nearest
 * untrusted hop was seen from: counted from the right, never the left-most entry.
 *
 * - `none`: no proxy; the socket's peer is the client and forwarded headers are ignored.
 * - `hops`: that many proxies, whatever their addresses. The server must then be reachable only
 *   through them, or a client that connects directly can forge the entries the count skips.
 * - `addresses`: proxies at these addresses or CIDR ranges (or proxy-addr's names `loopback`,
 *   `linklocal`, `uniquelocal`); only entries added by them are skipped.
 */
export type ProxyTrust =
  { kind: 'none' } | { kind: 'hops'; hops: number } | { kind: 'addresses'; addresses: string[] };

/** Asks whether the hop at `index` (0 = the socket's peer) is a proxy we trust. */
export type TrustFunction = (address: string, index: number) => boolean;

export function compileProxyTrust(trust: ProxyTrust): TrustFunction | false {
  switch (trust.kind) {
    case 'none':
      return false;
    case 'hops':
      return (_address, index) => index < trust.hops;
    case 'addresses':
      return proxyAddr.compile(trust.addresses);
  }
}

/**
 * The protocol the client used, for requests Fastify does not see (the socket.io handshake): the
 * last `X-Forwarded-Proto` entry when the socket's peer is a trusted proxy, as Fastify reads it.
 */
export function forwardedProtocol(
  request: IncomingMessage,
  trust: TrustFunction | false,
): 'http' | 'https' {
  const encrypted = 'encrypted' in request.socket && request.socket.encrypted === true;
  const header = request.headers['x-forwarded-proto'];
  if (!trust || typeof header !== 'string' || !trust(request.socket.remoteAddress ?? '', 0)) {
    return encrypted ? 'https' : 'http';
  }
  return header.split(',').at(-1)?.trim() === 'https' ? 'https' : 'http';
}
