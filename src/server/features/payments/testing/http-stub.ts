import {
  createServer,
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a stub received, for assertions. */
export interface StubRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface StubReply {
  status: number;
  body: unknown;
  headers?: Record<string, string>;
}

export interface HttpStub {
  /** http://127.0.0.1:{port} */
  url: string;
  requests: StubRequest[];
  close(): Promise<void>;
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A local HTTP server on 127.0.0.1 and a free port, answering with `handle`: the payment tests'
 * stand-in for a provider's API, speaking its wire format. `hang-up` drops the connection,
 * `hold` leaves it open without an answer.
 */
export async function startHttpStub(
  handle: (request: StubRequest) => StubReply | 'hang-up' | 'hold',
): Promise<HttpStub> {
  const requests: StubRequest[] = [];
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    readBody(request).then(
      (body) => {
        const received: StubRequest = {
          method: request.method ?? 'GET',
          path: request.url ?? '/',
          headers: request.headers,
          body,
        };
        requests.push(received);
        const reply = handle(received);
        if (reply === 'hang-up') {
          request.socket.destroy();
          return;
        }
        // Never answered: the caller waits until it gives up or dies.
        if (reply === 'hold') return;
        const text = typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body);
        response.writeHead(reply.status, {
          'content-type': 'application/json',
          ...reply.headers,
        });
        response.end(text);
      },
      (error: unknown) => request.socket.destroy(error instanceof Error ? error : undefined),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** An address where nothing listens: a provider that is down. */
export async function unusedLocalUrl(): Promise<string> {
  const stub = await startHttpStub(() => ({ status: 200, body: {} }));
  await stub.close();
  return stub.url;
}
