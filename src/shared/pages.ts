/**
 * The app's screens: which addresses each one answers and the client module that renders it, its
 * own chunk. The client router preloads the chunk of the address being opened; the server names
 * the same chunks in the page it sends, so the browser fetches them beside the entry.
 */
export const PAGES = {
  auth: { pattern: /^\/auth$/, module: 'app/routes/auth.tsx' },
  // The two pages of mailed links (docs/accounts.md#account-security), open signed in or not.
  resetPassword: { pattern: /^\/reset-password$/, module: 'app/routes/reset-password.tsx' },
  verifyEmail: { pattern: /^\/verify-email$/, module: 'app/routes/verify-email.tsx' },
  home: { pattern: /^\/$/, module: 'app/routes/home.tsx' },
  profile: { pattern: /^\/profile$/, module: 'app/routes/profile.tsx' },
  challenge: { pattern: /^\/challenges\/[^/]+$/, module: 'app/routes/challenge-detail.tsx' },
  payouts: { pattern: /^\/payouts$/, module: 'app/routes/payouts.tsx' },
  // Finding an opponent (docs/challenges.md#finding-an-opponent).
  player: { pattern: /^\/players\/[^/]+$/, module: 'app/routes/player.tsx' },
  leaderboard: { pattern: /^\/leaderboard$/, module: 'app/routes/leaderboard.tsx' },
  // Tournaments (docs/tournaments.md).
  tournaments: { pattern: /^\/tournaments$/, module: 'app/routes/tournaments.tsx' },
  tournament: {
    pattern: /^\/tournaments\/[^/]+$/,
    module: 'app/routes/tournament-detail.tsx',
  },
  admin: { pattern: /^\/admin$/, module: 'app/routes/admin.tsx' },
  adminPlayer: { pattern: /^\/admin\/players\/[^/]+$/, module: 'app/routes/admin-player.tsx' },
  playResponsibly: { pattern: /^\/play-responsibly$/, module: 'app/routes/play-responsibly.tsx' },
  cryptoCheckout: {
    pattern: /^\/sandbox\/crypto\/[^/]+$/,
    module: 'app/routes/sandbox-crypto-checkout.tsx',
  },
  // Whatever address no screen above answers.
  notFound: { pattern: null, module: 'app/routes/not-found.tsx' },
} as const;

export type PageName = keyof typeof PAGES;

/**
 * The chunk a page that names its signed-in user loads before its first render, to check that
 * user against its contract: the one vite.config.ts puts zod and that contract in (its ZOD
 * modules). The server names it, and what it imports, in such a page too.
 */
export const SIGNED_IN_CHUNK = 'lobby';

/** The page at `path` (without its query string): the not-found page when no screen matches. */
export function pageAt(path: string): PageName {
  const names = Object.keys(PAGES) as PageName[];
  return names.find((name) => PAGES[name].pattern?.test(path)) ?? 'notFound';
}
