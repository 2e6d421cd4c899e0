// The references for `npm run bench:api`: Fastify with nothing else (no cookies, sessions,
// database, schemas or logging), the ceiling any API route could reach here. `/bare` answers
// `{"status":"ok"}`; with BARE_BODY_FILE and BARE_ENCODING, `/same-bytes` sends that file's
// bytes as they are (the home page's list, already compressed), with that Content-Encoding: the
// ceiling for a route that sends a page of that size.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ status: 'ok' }));
const bodyFile = process.env.BARE_BODY_FILE;
if (bodyFile) {
  const body = readFileSync(bodyFile);
  const encoding = process.env.BARE_ENCODING ?? 'identity';
  app.get('/same-bytes', (_request, reply) =>
    reply
      .header('content-type', 'application/json; charset=utf-8')
      .header('content-encoding', encoding)
      .header('vary', 'accept-encoding')
      .send(body),
  );
}
await app.listen({ port: Number(process.env.PORT ?? 0), host: '127.0.0.1' });
const address = app.server.address();
process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : ''}\n`);
process.once('SIGTERM', () => void app.close().then(() => process.exit(0)));
