// npm run audit:web — Lighthouse (performance and accessibility; its default mobile profile with
// simulated slow 4G and a 4× slower CPU, and its desktop preset; AUDIT_PROFILE picks one) on
// /auth, and signed in (through a session cookie sent as an extra header) on /, the player's own
// /players/{name}, /leaderboard and /tournaments, against the built server, with Debian's
// Chromium. Starts the server
// on a fresh embedded database, or audits AUDIT_BASE_URL when set (a player is registered there
// for the cookie). Prints the scores, the main timings and what Lighthouse flags; exits non-zero
// only when an audit could not run, never for a score.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { median, startProcess, table, type ServerProcess } from './common.ts';
import { sessionCookieOf } from '#tests/helpers/cookies.ts';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const RUNS = Number(process.env.AUDIT_RUNS ?? 1);
/** A folder to keep each full Lighthouse report in (JSON), for a closer look. */
const REPORT_DIR = process.env.AUDIT_REPORT_DIR;

type Profile = 'mobile' | 'desktop';
const PROFILES: Profile[] =
  process.env.AUDIT_PROFILE === 'mobile' || process.env.AUDIT_PROFILE === 'desktop'
    ? [process.env.AUDIT_PROFILE]
    : ['mobile', 'desktop'];

interface AuditResult {
  page: string;
  profile: Profile;
  performance: number;
  accessibility: number;
  metrics: Record<string, string>;
  /** The timings behind `metrics`, in milliseconds (CLS has no unit), for the medians. */
  values: Record<string, number>;
  flagged: string[];
}

async function signUp(baseUrl: string): Promise<{ cookie: string; username: string }> {
  const username = `audit_${process.pid % 100_000}`;
  const response = await fetch(`${baseUrl}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username,
      password: 'audit-password',
      phoneNumber: '+1 555 010 0000',
      isOver18: true,
    }),
  });
  if (response.status !== 201) {
    throw new Error(
      `could not register the audit player: ${response.status} ${await response.text()}`,
    );
  }
  return { cookie: sessionCookieOf(response), username };
}

const METRICS = [
  ['first-contentful-paint', 'FCP'],
  ['largest-contentful-paint', 'LCP'],
  ['total-blocking-time', 'TBT'],
  ['cumulative-layout-shift', 'CLS'],
  ['speed-index', 'SI'],
] as const;

async function audit(
  port: number,
  profile: Profile,
  page: string,
  url: string,
  headers: Record<string, string>,
  run: number,
): Promise<AuditResult> {
  // Lighthouse itself sometimes fails to record the trace of a load (NO_NAVSTART, "please run
  // Lighthouse again"): that says nothing about the page, so the load is measured again.
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await auditOnce(port, profile, page, url, headers, run);
    } catch (error) {
      if (!(error instanceof TraceNotRecorded) || attempt === 3) throw error;
      process.stderr.write(`Lighthouse recorded no trace of ${url}; measuring it again\n`);
    }
  }
}

class TraceNotRecorded extends Error {}

async function auditOnce(
  port: number,
  profile: Profile,
  page: string,
  url: string,
  headers: Record<string, string>,
  run: number,
): Promise<AuditResult> {
  const result = await lighthouse(
    url,
    {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
      extraHeaders: headers,
    },
    profile === 'desktop' ? desktopConfig : undefined,
  );
  const lhr = result?.lhr;
  if (!lhr) throw new Error(`Lighthouse returned nothing for ${url}`);
  if (lhr.runtimeError?.code === 'NO_NAVSTART') throw new TraceNotRecorded(url);
  if (lhr.runtimeError) throw new Error(`Lighthouse failed on ${url}: ${lhr.runtimeError.message}`);
  if (REPORT_DIR) {
    mkdirSync(REPORT_DIR, { recursive: true });
    const name = page === '/' ? 'home' : page.replaceAll('/', '');
    // One file per run: the run whose score stands out is the one worth opening.
    const suffix = RUNS > 1 ? `-${run + 1}` : '';
    writeFileSync(
      join(REPORT_DIR, `lighthouse-${name}-${profile}${suffix}.json`),
      JSON.stringify(lhr, null, 2),
    );
  }
  const score = (id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const flagged: string[] = [];
  for (const category of ['performance', 'accessibility']) {
    for (const ref of lhr.categories[category]?.auditRefs ?? []) {
      const item = lhr.audits[ref.id];
      if (!item || item.score === null || item.score >= 0.9) continue;
      if (ref.weight === 0 && item.scoreDisplayMode !== 'metricSavings') continue;
      flagged.push(
        `${category}: ${item.title}${item.displayValue ? ` (${item.displayValue})` : ''}`,
      );
    }
  }
  return {
    page,
    profile,
    performance: score('performance'),
    accessibility: score('accessibility'),
    metrics: Object.fromEntries(
      METRICS.map(([id, label]) => [label, lhr.audits[id]?.displayValue ?? '-']),
    ),
    values: Object.fromEntries(
      METRICS.map(([id, label]) => [label, lhr.audits[id]?.numericValue ?? Number.NaN]),
    ),
    flagged,
  };
}

let failed = false;
let server: ServerProcess | undefined;
let chrome: chromeLauncher.LaunchedChrome | undefined;
try {
  let baseUrl = process.env.AUDIT_BASE_URL;
  if (!baseUrl) {
    server = await startProcess('dist/server/main.js', {}, '/api/ready');
    baseUrl = server.baseUrl;
  }
  const { cookie, username } = await signUp(baseUrl);
  const pages: Array<[page: string, headers: Record<string, string>]> = [
    ['/auth', {}],
    ['/', { Cookie: cookie }],
    [`/players/${username}`, { Cookie: cookie }],
    ['/leaderboard', { Cookie: cookie }],
    ['/tournaments', { Cookie: cookie }],
  ];
  chrome = await chromeLauncher.launch({
    chromePath: CHROMIUM,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
  const results: AuditResult[] = [];
  for (const profile of PROFILES) {
    for (let run = 0; run < RUNS; run += 1) {
      for (const [page, headers] of pages) {
        results.push(await audit(chrome.port, profile, page, `${baseUrl}${page}`, headers, run));
      }
    }
  }
  process.stdout.write(
    `\nLighthouse ${RUNS > 1 ? `(${RUNS} runs each) ` : ''}on the built server; mobile: ` +
      "simulated slow 4G and 4× CPU slowdown, desktop: Lighthouse's desktop preset; targets: " +
      'performance ≥ 95, accessibility ≥ 95\n\n' +
      table(
        results.map((r) => ({
          page: r.page,
          profile: r.profile,
          performance: r.performance,
          accessibility: r.accessibility,
          ...r.metrics,
        })),
      ) +
      '\n',
  );
  if (RUNS > 1) {
    // The scores move by a point or two from run to run on a shared machine: the median is the
    // figure to report, and the median timings show which metric moved it.
    const medianMs = (runs: AuditResult[], label: string) =>
      `${Math.round(median(runs.map((r) => r.values[label] ?? Number.NaN)))} ms`;
    const medians = PROFILES.flatMap((profile) =>
      pages.map(([page]) => {
        const runs = results.filter((r) => r.profile === profile && r.page === page);
        return {
          page,
          profile,
          'median performance': median(runs.map((r) => r.performance)),
          'median accessibility': median(runs.map((r) => r.accessibility)),
          'median TBT': medianMs(runs, 'TBT'),
          'median FCP': medianMs(runs, 'FCP'),
          'median LCP': medianMs(runs, 'LCP'),
        };
      }),
    );
    process.stdout.write(`\n${table(medians)}\n`);
  }
  for (const r of results) {
    if (r.flagged.length === 0) continue;
    process.stdout.write(
      `\nFlagged on ${r.page} (${r.profile}):\n${r.flagged.map((f) => `  - ${f}`).join('\n')}\n`,
    );
  }
} catch (error) {
  failed = true;
  process.stderr.write(
    `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
} finally {
  chrome?.kill();
  await server?.stop();
}
process.exit(failed ? 1 : 0);
