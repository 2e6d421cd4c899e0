import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type Locator,
  type Page,
} from 'playwright-core';
import { sessionCookieOf } from '#tests/helpers/cookies.ts';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const ADMIN = { username: 'operator', password: 'operator-password' };

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

export interface RunningApp {
  baseUrl: string;
  dataDir: string;
  /** Sends SIGTERM (or the signal given), waits for the process to end, returns its exit code. */
  stop(options?: { keepData?: boolean; signal?: NodeJS.Signals }): Promise<number | null>;
  logs(): string;
  /** The process's exit code once it has ended; null while it runs. */
  exitCode(): number | null;
}

/**
 * Starts the built server (`dist/server/main.js`) the way `npm start` does, on a free port with
 * a fresh embedded database, and waits until it is ready.
 */
export async function startApp(extraEnv: Record<string, string> = {}): Promise<RunningApp> {
  const dataDir = mkdtempSync(join(tmpdir(), 'skillstake-e2e-'));
  const port = await freePort();
  let output = '';
  const child: ChildProcess = spawn(process.execPath, ['dist/server/main.js'], {
    env: {
      PATH: process.env.PATH ?? '',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ADMIN_USERNAME: ADMIN.username,
      ADMIN_PASSWORD: ADMIN.password,
      // The two-factor e2e turns this on; the others drive the admin with a password alone.
      ADMIN_2FA_REQUIRED: 'false',
      // The compliance e2e turns this on; the others request payouts without an approved ID.
      KYC_REQUIRED_FOR_PAYOUT: 'false',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );

  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited during start:\n${output}`);
    try {
      const response = await fetch(`${baseUrl}/api/ready`);
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`server did not become ready:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }

  return {
    baseUrl,
    dataDir,
    logs: () => output,
    exitCode: () => child.exitCode,
    stop: async (options = {}) => {
      if (child.exitCode === null) child.kill(options.signal ?? 'SIGTERM');
      const code = await exited;
      if (!options.keepData) rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

export function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

export interface Player {
  context: BrowserContext;
  page: Page;
  username: string;
  password: string;
}

let counter = 0;

/** Registers a new player through the UI, in a browser context of its own. */
export async function registerPlayer(
  browser: Browser,
  baseUrl: string,
  viewport = { width: 1280, height: 900 },
): Promise<Player> {
  counter += 1;
  const username = `e2e_${process.pid % 10_000}_${counter}`;
  const password = 'e2e-password';
  const context = await browser.newContext({ viewport, baseURL: baseUrl });
  const page = await context.newPage();
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Register' }).click();
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Phone Number').fill('+1 555 010 9999');
  await page.getByLabel('Email (optional)').fill(`${username}@example.com`);
  await page.getByLabel('State').selectOption({ label: 'New York' });
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'CREATE ACCOUNT' }).click();
  await page.waitForURL(`${baseUrl}/`);
  return { context, page, username, password };
}

/**
 * Opens a second account on the browser of `context` (its device cookie), by the API: what a player
 * who makes another account to play themselves does. Answers its username and the `cookie` header
 * of its session on that browser.
 */
export async function registerOnSameBrowser(
  baseUrl: string,
  context: BrowserContext,
): Promise<{ username: string; cookie: string }> {
  const device = (await context.cookies(baseUrl)).find((cookie) => cookie.name === 'device');
  if (!device) throw new Error('the browser has no device cookie');
  counter += 1;
  const username = `e2e_${process.pid % 10_000}_${counter}_twin`;
  const response = await fetch(`${baseUrl}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: `device=${device.value}` },
    body: JSON.stringify({
      username,
      password: 'e2e-password',
      phoneNumber: '+1 555 010 9998',
      isOver18: true,
    }),
  });
  if (response.status !== 201) throw new Error(`register failed: ${await response.text()}`);
  return { username, cookie: `device=${device.value}; ${sessionCookieOf(response)}` };
}

/** Signs an existing account in through the login form, in a browser context of its own. */
export async function signIn(
  browser: Browser,
  baseUrl: string,
  credentials: { username: string; password: string },
  viewport = { width: 1280, height: 900 },
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport });
  const page = await context.newPage();
  await page.goto('/auth');
  await page.getByLabel('Username', { exact: true }).fill(credentials.username);
  await page.getByLabel('Password', { exact: true }).fill(credentials.password);
  await page.getByRole('button', { name: /LOGIN/ }).click();
  await page.waitForURL(`${baseUrl}/`);
  return { context, page };
}

/**
 * Calls the API as the account signed in to `context` (its cookies go along), and answers the
 * JSON body; anything but a 2xx throws with the status and body.
 */
export async function callApi<T = unknown>(
  context: BrowserContext,
  method: 'GET' | 'POST',
  path: string,
  data?: unknown,
): Promise<T> {
  const response = await context.request.fetch(path, { method, data });
  if (!response.ok()) {
    throw new Error(`${method} ${path}: ${response.status()} ${await response.text()}`);
  }
  return (await response.json()) as T;
}

/** Gives a player money through the admin API, as an operator would. */
export async function creditPlayer(
  baseUrl: string,
  username: string,
  amount: string,
): Promise<void> {
  const login = await fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  const cookie = sessionCookieOf(login);
  const users = (await (
    await fetch(`${baseUrl}/api/admin/users`, { headers: { cookie } })
  ).json()) as Array<{
    id: number;
    username: string;
  }>;
  const user = users.find((u) => u.username === username);
  if (!user) throw new Error(`no user ${username}`);
  const response = await fetch(`${baseUrl}/api/admin/users/${user.id}/balance`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({ amount }),
  });
  if (!response.ok) throw new Error(`credit failed: ${response.status} ${await response.text()}`);
}

/** Calls the API as the operator, signing in first; anything but a 2xx throws. */
export async function adminCall<T = unknown>(
  baseUrl: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<T> {
  const login = await fetch(`${baseUrl}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(ADMIN),
  });
  const cookie = sessionCookieOf(login);
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { cookie, ...(method === 'POST' ? { 'content-type': 'application/json' } : {}) },
    ...(method === 'POST' ? { body: JSON.stringify(body ?? {}) } : {}),
  });
  if (!response.ok)
    throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Approves the player's pending licence through the admin API, as an operator would. */
export async function approveLicence(baseUrl: string, username: string): Promise<void> {
  const pending = await adminCall<Array<{ id: number; username: string }>>(
    baseUrl,
    'GET',
    '/api/admin/verifications?status=pending',
  );
  const review = pending.find((row) => row.username === username);
  if (!review) throw new Error(`no pending licence of ${username}`);
  await adminCall(baseUrl, 'POST', `/api/admin/verifications/${review.id}/approve`);
}

/** The top bar's balance chip: dollars, labelled Coins, titled '$ Blue Coins' (SPEC §1). */
export const topBarBalance = (page: Page) => page.locator('header').getByTitle('$ Blue Coins');

/** Waits until the top bar's balance shows `text` (a change arrives over the account socket). */
export async function expectTopBarBalance(page: Page, text: string): Promise<void> {
  await topBarBalance(page).getByText(text).waitFor({ timeout: 10_000 });
}

/** The smallest PNG, for uploads: the server checks a file's bytes, not its name. */
export const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * Reads until `read` answers something, every `everyMs`, for at most `timeoutMs`: what a crash
 * e2e waits for is work the servers do in the background.
 */
export async function until<T>(
  what: string,
  read: () => Promise<T | undefined>,
  { timeoutMs = 60_000, everyMs = 10 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

/** Whether something listens at the URL's host and port (PostgreSQL for the crash e2es). */
export async function reachable(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port || 5432) });
    socket.setTimeout(1000);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

/** The two widths every screen is looked at: a laptop, and a phone. */
export const WIDE = { width: 1280, height: 900 };
export const NARROW = { width: 390, height: 844 };

/**
 * Saves the page at both widths into `E2E_SCREENSHOTS_DIR`, as `{name}-{width}.png`, with
 * `subject` scrolled into view; unset, nothing is saved. The page is left at the wide width.
 */
export async function screenshot(page: Page, name: string, subject?: Locator): Promise<void> {
  const dir = process.env.E2E_SCREENSHOTS_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  for (const viewport of [WIDE, NARROW]) {
    await page.setViewportSize(viewport);
    // Two frames: layout and React have caught up with the resize.
    await page.evaluate(
      () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
    );
    await subject?.scrollIntoViewIfNeeded();
    await page.screenshot({ path: join(dir, `${name}-${viewport.width}.png`) });
  }
  await page.setViewportSize(WIDE);
}
