import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/** A module id matcher: the path fragments of the node_modules packages or sources it takes. */
function modules(...fragments: string[]): (id: string) => boolean {
  return (id) => fragments.some((fragment) => id.replaceAll('\\', '/').includes(fragment));
}

// zod, its configuration and the contract of the signed-in user. Neither the entry nor /auth
// imports them: building zod's schemas was the largest part of the entry's evaluation on a slow
// phone, and /auth checks nothing before its first paint. The lobby (/) needs them before its
// first render, to check the user its page names (src/client/features/auth/api/get-user.ts), so
// they are part of its chunk below rather than a chunk of their own, which would be one request
// more in the first wave of six and delayed the lobby's largest paint in Lighthouse's simulation.
// The server names that chunk in every page that names a user, by the group's name
// (SIGNED_IN_CHUNK in src/shared/pages.ts).
// The other contracts are chunks of their own, loaded on first use: the lists' with their first
// answers, the forms' with the forms. `npm run check:bundle` fails if zod comes back into what
// the entry or /auth needs.
const ZOD = ['/node_modules/zod/', '/src/shared/validation.ts', '/src/shared/contracts/user.ts'];

// On simulated slow 4G every request costs a round trip and a browser opens at most six at once
// to an origin over HTTP/1.1, so a page that needs twenty 1-kB chunks loads in four waves. These
// groups keep what the entry and the first pages need in a few chunks (issue 8; the route modules
// stay their own chunks, so `npm run check:bundle` still finds each page).
const CHUNK_GROUPS = [
  // Everything the entry imports goes into the entry chunk: one request, not four.
  { name: 'index', tags: ['$initial' as const], priority: 4 },
  // Every icon outside the entry, about 60: a few kB in one chunk, instead of one request each.
  { name: 'icons', test: modules('/lucide-react/'), priority: 3 },
  // Form state, validation resolver and fields, used by every form page and dialog.
  {
    name: 'forms',
    test: modules(
      '/react-hook-form/',
      '/@hookform/',
      '/src/client/components/ui/field.tsx',
      '/src/client/lib/form-errors.ts',
      '/src/client/lib/lazy-zod-resolver.ts',
    ),
    priority: 2,
  },
  // The page parts shared by /auth, / and the other pages.
  {
    name: 'pages',
    test: modules(
      '/@radix-ui/react-tabs/',
      '/@radix-ui/react-roving-focus/',
      '/@radix-ui/react-direction/',
      '/@radix-ui/react-id/',
      '/@radix-ui/react-use-is-hydrated/',
      '/@tanstack/query-core/build/modern/mutationObserver.js',
      '/@tanstack/react-query/build/modern/useMutation.js',
      '/@tanstack/query-core/build/modern/infiniteQueryObserver.js',
      '/@tanstack/react-query/build/modern/infiniteQueryOptions.js',
      '/@tanstack/react-query/build/modern/useInfiniteQuery.js',
      '/src/client/components/ui/card.tsx',
      '/src/client/components/ui/tabs.tsx',
      '/src/client/components/ui/badge.tsx',
      '/src/client/components/ui/empty-state.tsx',
      '/src/client/features/auth/api/session-cache.ts',
      // The look of fields without the forms' code, and the lobby's constants (no zod).
      '/src/client/components/ui/native-select.tsx',
      '/src/client/components/ui/input-classes.ts',
      // A label and an input without form state, here rather than with react-hook-form:
      // /leaderboard's filter needs these alone, and a chunk of their own would be one more
      // request in front of /auth's first paint.
      '/@radix-ui/react-label/',
      '/src/client/components/ui/label.tsx',
      '/src/client/components/ui/input.tsx',
      '/src/shared/lobby.ts',
    ),
    priority: 2,
  },
  // What the lobby's first render needs beyond the shell: its lists' queries, the cards and the
  // cards' actions, and ZOD. Not the lists' contracts, nor the API modules of the forms, which go
  // with the forms' chunks and the contracts those check against.
  {
    name: 'lobby',
    test: modules(
      '/src/shared/contracts/uploads.ts',
      '/src/client/features/challenges/api/get-challenges.ts',
      '/src/client/features/challenges/api/get-challenge-counts.ts',
      '/src/client/features/challenges/api/get-challenge.ts',
      '/src/client/features/challenges/api/invalidate-challenges.ts',
      '/src/client/features/challenges/api/accept-challenge.ts',
      '/src/client/features/challenges/api/cancel-challenge.ts',
      '/src/client/features/challenges/lib/',
      '/src/client/features/challenges/components/challenge-grid.tsx',
      '/src/client/features/challenges/components/challenge-card.tsx',
      '/src/client/features/challenges/components/accept-challenge-button.tsx',
      '/src/client/features/challenges/components/cancel-challenge-button.tsx',
      '/src/client/features/challenges/components/phone-number.tsx',
      '/src/client/features/challenges/components/submit-results-dialog.tsx',
      '/src/client/features/challenges/components/create-challenge-dialog.tsx',
      // The filter bar (DESIGN §12) and the usernames' links.
      '/src/client/features/challenges/components/lobby-filter-bar.tsx',
      '/src/client/features/challenges/hooks/',
      '/src/client/features/challenges/api/get-game-suggestions.ts',
      '/src/client/components/player-link.tsx',
      ...ZOD,
    ),
    priority: 2,
  },
  // Modal dialogs and what they use to trap focus and lock scrolling.
  {
    name: 'dialogs',
    test: modules(
      '/@radix-ui/react-dialog/',
      '/@radix-ui/react-alert-dialog/',
      '/@radix-ui/react-focus-scope/',
      '/@radix-ui/react-focus-guards/',
      '/react-remove-scroll',
      '/use-callback-ref/',
      '/use-sidecar/',
      '/get-nonce/',
      '/react-style-singleton/',
      '/aria-hidden/',
      '/tslib/',
      '/src/client/components/ui/dialog.tsx',
      '/src/client/components/ui/alert-dialog.tsx',
    ),
    priority: 2,
  },
];

// The fonts of the text every page shows first (body text, and the display face's bold and black
// weights in the headings). The stylesheet alone would have them requested only once the first
// render lays that text out, a round trip late, and the text would shift when they swap in.
const FIRST_PAINT_FONTS = [
  /^assets\/inter-latin-wght-normal-.*\.woff2$/,
  /^assets\/orbitron-latin-700-normal-.*\.woff2$/,
  /^assets\/orbitron-latin-900-normal-.*\.woff2$/,
];

/** Preloads FIRST_PAINT_FONTS from index.html, so they download beside the entry chunk. */
function preloadFirstPaintFonts(): Plugin {
  return {
    name: 'preload-first-paint-fonts',
    apply: 'build',
    transformIndexHtml(_html, { bundle }) {
      const files = Object.keys(bundle ?? {});
      return FIRST_PAINT_FONTS.map((pattern) => {
        const file = files.find((name) => pattern.test(name));
        if (!file) throw new Error(`no font asset matches ${pattern}`);
        return {
          tag: 'link',
          attrs: {
            rel: 'preload',
            as: 'font',
            type: 'font/woff2',
            href: `/${file}`,
            crossorigin: '',
          },
          injectTo: 'head',
        };
      });
    },
  };
}

const apiTarget = `http://127.0.0.1:${process.env.API_PORT ?? '3001'}`;

export default defineConfig({
  root: fileURLToPath(new URL('./src/client', import.meta.url)),
  publicDir: false,
  plugins: [react(), tailwindcss(), preloadFirstPaintFonts()],
  build: {
    outDir: fileURLToPath(new URL('./dist/client', import.meta.url)),
    emptyOutDir: true,
    // Hidden: no sourceMappingURL comment; scripts/keep-source-maps-private.mjs moves the maps
    // out of what the server sends.
    sourcemap: 'hidden',
    target: 'es2022',
    // dist/client/.vite/manifest.json maps each source module to its chunk and that chunk's
    // imports: `npm run check:bundle` reads it to add up what a first visit downloads.
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // Groups capture exactly the modules their test names, not what those import: the icon
          // and Radix packages re-export everything from one index module, and following it
          // would drag every primitive into the first group that touches it.
          includeDependenciesRecursively: false,
          groups: CHUNK_GROUPS,
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: apiTarget, changeOrigin: false },
      '/ws': { target: apiTarget, ws: true },
      '/socket.io': { target: apiTarget, ws: true },
    },
  },
});
