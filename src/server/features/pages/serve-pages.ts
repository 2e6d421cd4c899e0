import { existsSync } from 'node:fs';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { buildClientPages } from '../../lib/client-pages.ts';
import { compress, preferredEncoding } from '../../lib/content-encoding.ts';
import { projectRoot } from '../../lib/project-root.ts';
import { pageViewer, SESSION_COOKIE } from '../accounts/index.ts';
import { pageData } from './page-data.ts';

export interface ServePagesOptions {
  /** Serve the built client when it exists. */
  serveClient: boolean;
  /** Where the built client is (default dist/client); tests give a small stand-in. */
  clientDir?: string;
  /**
   * How long a page waits at most for the data it carries (decision 8) before it is sent without
   * it (150 ms by default); tests shorten it.
   */
  pageDataWaitMs?: number;
}

/**
 * The built client: its assets, and every page address answered with the page, which names its
 * signed-in user and carries the data its screen would ask for first (decision 8). Anything else
 * the server has no route for answers 404.
 */
export async function servePages(
  app: FastifyInstance,
  ctx: AppContext,
  options: ServePagesOptions,
): Promise<void> {
  const clientDir = options.clientDir ?? join(projectRoot(), 'dist', 'client');
  const serveClient = options.serveClient && existsSync(join(clientDir, 'index.html'));
  if (serveClient) {
    await app.register(fastifyStatic, {
      root: clientDir,
      wildcard: false,
      index: false,
      // The build writes .br and .gz beside each text file (scripts/compress-client.mjs).
      preCompressed: true,
      // The build keeps source maps out of dist/client (scripts/keep-source-maps-private.mjs);
      // this refuses one that an operator copied back by hand all the same.
      allowedPath: (path) => !path.toLowerCase().endsWith('.map'),
      setHeaders: (res, path) => {
        // Hashed asset names change with their content, so they can be cached for good;
        // index.html must always be fetched again to pick up a new release.
        void res.header(
          'cache-control',
          path.startsWith(join(clientDir, 'assets'))
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
  }

  const clientPages = serveClient ? buildClientPages(clientDir) : undefined;
  app.setNotFoundHandler(async (request, reply) => {
    // A missing script or style sheet is a 404, not a page the browser would refuse to run.
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !request.url.startsWith('/api/') &&
      !request.url.startsWith('/assets/');
    if (clientPages && isPage) {
      const queryAt = request.url.indexOf('?');
      const path = queryAt < 0 ? request.url : request.url.slice(0, queryAt);
      const search = queryAt < 0 ? '' : request.url.slice(queryAt + 1);
      // A page that cannot say who is signed in still loads: its client asks GET /api/user.
      const signedIn = await pageViewer(ctx, request.cookies[SESSION_COOKIE]).catch(
        (error: unknown) => {
          request.log.error({ err: error }, 'could not check the session of a page');
          return undefined;
        },
      );
      // What the screen would ask the API for first, as the API would answer this viewer; left
      // out when it fails or is slow (the client then asks as before), and from the answer to a
      // HEAD request, whose body is never sent.
      const data =
        signedIn && request.method === 'GET'
          ? await pageData(
              ctx,
              { path, search, viewer: signedIn.viewer },
              request.log,
              options.pageDataWaitMs,
            )
          : [];
      // It names its user: kept by no cache, sent again on every visit, like an API answer.
      // Compressed per visit (a few kilobytes, a fraction of a millisecond): on a slow phone
      // network the document is the first thing the page waits for.
      const html = clientPages.render(path, signedIn && signedIn.shown, data);
      const encoding = preferredEncoding(request.headers['accept-encoding']);
      void reply
        .header('cache-control', 'no-store')
        .header('vary', 'accept-encoding')
        .type('text/html; charset=utf-8');
      if (!encoding) return reply.send(html);
      return reply.header('content-encoding', encoding).send(compress(html, encoding));
    }
    return reply.code(404).send({ code: 'NOT_FOUND', message: 'Not found' });
  });
}
