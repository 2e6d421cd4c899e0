import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PublicUser } from '#shared/contracts/auth.ts';
import { PAGE_DATA_ELEMENT_ID, type PageQuery } from '#shared/page-data.ts';
import { PAGES, pageAt, SIGNED_IN_CHUNK, type PageName } from '#shared/pages.ts';
import { SESSION_USER_ELEMENT_ID } from '#shared/session-user.ts';

/** One chunk of Vite's build manifest (dist/client/.vite/manifest.json). */
interface ManifestChunk {
  file: string;
  /** A chunk's name: for a chunk of vite.config.ts's groups, the group's. */
  name?: string;
  isEntry?: boolean;
  imports?: string[];
  css?: string[];
}

type Manifest = Record<string, ManifestChunk>;

/** The chunk of `key` and every chunk it imports statically, transitively, each once. */
function staticClosure(manifest: Manifest, key: string, chunks = new Set<ManifestChunk>()) {
  const chunk = manifest[key];
  if (!chunk) throw new Error(`the client build has no chunk for ${key}`);
  if (chunks.has(chunk)) return chunks;
  chunks.add(chunk);
  for (const imported of chunk.imports ?? []) staticClosure(manifest, imported, chunks);
  return chunks;
}

/**
 * A value as a JSON data block (not a script: the content security policy allows no inline code,
 * and a browser runs none of type application/json). `<` is escaped so that no value, a username
 * with `</script>` in it say, can end the block.
 */
function jsonBlock(id: string, value: unknown): string {
  const json = JSON.stringify(value).replaceAll('<', '\\u003c');
  return `<script type="application/json" id="${id}">${json}</script>`;
}

export interface ClientPages {
  /**
   * The page of the screen at `path`, saying who is signed in (null: nobody), or not saying when
   * `user` is undefined (the session could not be checked: the client asks the API itself);
   * with the answers in `data`, if any, that the screen would otherwise ask the API for first.
   */
  render(path: string, user: PublicUser | null | undefined, data?: readonly PageQuery[]): string;
}

/**
 * The built index.html once per screen, each naming the chunks its screen renders with, which
 * the entry would otherwise ask for only once it has run: on a slow phone network that is a
 * whole round trip, and a download that could have shared the entry's. Built at start from the
 * client build's manifest; a screen whose module the build lacks stops the start.
 */
export function buildClientPages(clientDir: string): ClientPages {
  const html = readFileSync(join(clientDir, 'index.html'), 'utf8');
  const manifest = JSON.parse(
    readFileSync(join(clientDir, '.vite', 'manifest.json'), 'utf8'),
  ) as Manifest;
  const entryKey = Object.keys(manifest).find((key) => manifest[key]?.isEntry);
  if (!entryKey) throw new Error('the client build has no entry chunk');
  // index.html loads the entry and preloads its imports already.
  const entry = staticClosure(manifest, entryKey);
  const headEnd = html.indexOf('</head>');
  const bodyEnd = html.indexOf('</body>');
  if (headEnd < 0 || bodyEnd < headEnd) throw new Error('the built index.html has no head or body');

  const userChunkKey = Object.keys(manifest).find(
    (key) => key.startsWith('_') && manifest[key]?.name === SIGNED_IN_CHUNK,
  );
  if (!userChunkKey) throw new Error(`the client build has no ${SIGNED_IN_CHUNK} chunk`);
  const userChunks = [...staticClosure(manifest, userChunkKey)].filter(
    (chunk) => !entry.has(chunk),
  );
  const linksTo = (chunks: ManifestChunk[]) => {
    const stylesheets = new Set(chunks.flatMap((chunk) => chunk.css ?? []));
    return [
      ...[...stylesheets].map((css) => `<link rel="stylesheet" crossorigin href="/${css}">`),
      ...chunks.map((chunk) => `<link rel="modulepreload" crossorigin href="/${chunk.file}">`),
    ].join('');
  };

  const pages = {} as Record<PageName, { head: string; signedInHead: string; body: string }>;
  for (const name of Object.keys(PAGES) as PageName[]) {
    const chunks = [...staticClosure(manifest, PAGES[name].module)].filter(
      (chunk) => !entry.has(chunk),
    );
    const start = `${html.slice(0, headEnd)}${linksTo(chunks)}`;
    const end = html.slice(headEnd, bodyEnd);
    pages[name] = {
      head: start + end,
      // A page naming a user also names the chunks its client checks that user with.
      signedInHead: start + linksTo(userChunks.filter((chunk) => !chunks.includes(chunk))) + end,
      body: html.slice(bodyEnd),
    };
  }
  return {
    render(path, user, data = []) {
      const page = pages[pageAt(path)];
      const head = user ? page.signedInHead : page.head;
      const blocks = [
        user === undefined ? '' : jsonBlock(SESSION_USER_ELEMENT_ID, user),
        data.length === 0 ? '' : jsonBlock(PAGE_DATA_ELEMENT_ID, data),
      ];
      return head + blocks.join('') + page.body;
    },
  };
}
