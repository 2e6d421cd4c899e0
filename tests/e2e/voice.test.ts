import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHROMIUM_ARGS,
  CHROMIUM_PATH,
  creditPlayer,
  launchBrowser,
  startApp,
  type RunningApp,
} from './harness.ts';

// Each player is a separate Chromium process with a fake microphone (a steady tone), so the
// call crosses a real WebRTC stack between two browsers.
const MEDIA_ARGS = [
  '--use-fake-device-for-media-stream',
  '--use-fake-ui-for-media-stream',
  '--allow-loopback-in-peer-connection',
];

// Records every RTCPeerConnection the page makes, so the test can read getStats() without the
// app exposing anything for tests.
const CAPTURE_PEERS = `
  window.__peers = [];
  const NativePeer = window.RTCPeerConnection;
  window.RTCPeerConnection = function (...args) {
    const peer = new NativePeer(...args);
    window.__peers.push(peer);
    return peer;
  };
  window.RTCPeerConnection.prototype = NativePeer.prototype;
`;

interface AudioStats {
  inboundBytes: number;
  outboundEnergy: number;
}

async function audioStats(page: Page): Promise<AudioStats> {
  return page.evaluate(async () => {
    const peers = (window as unknown as { __peers: RTCPeerConnection[] }).__peers;
    const live = peers.filter((peer) => peer.connectionState === 'connected').at(-1);
    let inboundBytes = 0;
    let outboundEnergy = 0;
    if (live) {
      const report = await live.getStats();
      report.forEach(
        (stat: {
          type: string;
          kind?: string;
          bytesReceived?: number;
          totalAudioEnergy?: number;
        }) => {
          if (stat.type === 'inbound-rtp' && stat.kind === 'audio')
            inboundBytes += stat.bytesReceived ?? 0;
          if (stat.type === 'media-source' && stat.kind === 'audio')
            outboundEnergy += stat.totalAudioEnergy ?? 0;
        },
      );
    }
    return { inboundBytes, outboundEnergy };
  });
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let app: RunningApp;
const folders: string[] = [];
const contexts: BrowserContext[] = [];

async function playerContext(): Promise<BrowserContext> {
  const folder = mkdtempSync(join(tmpdir(), 'skillstake-voice-'));
  folders.push(folder);
  const context = await chromium.launchPersistentContext(folder, {
    executablePath: CHROMIUM_PATH,
    args: [...CHROMIUM_ARGS, ...MEDIA_ARGS],
    permissions: ['microphone'],
    baseURL: app.baseUrl,
    viewport: { width: 1280, height: 900 },
  });
  contexts.push(context);
  await context.addInitScript(CAPTURE_PEERS);
  return context;
}

async function register(context: BrowserContext, username: string): Promise<Page> {
  const page = context.pages()[0] ?? (await context.newPage());
  await page.goto('/auth');
  await page.getByRole('tab', { name: 'Register' }).click();
  await page.getByLabel('Username', { exact: true }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill('voice-password');
  await page.getByLabel('Phone Number').fill('+1 555 010 7777');
  await page.getByLabel('State').selectOption({ label: 'New York' });
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'CREATE ACCOUNT' }).click();
  await page.waitForURL(`${app.baseUrl}/`);
  return page;
}

const voiceStatus = (page: Page) =>
  page.locator('[data-voice-status]').getAttribute('data-voice-status');

beforeAll(async () => {
  app = await startApp({ ICE_SERVERS: '[]' });
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await app?.stop();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

describe('voice chat between the two players of a challenge', () => {
  it('connects both browsers, carries audio, mutes, and disconnects both', async () => {
    const suffix = process.pid % 10_000;
    const creator = await register(await playerContext(), `voice_a_${suffix}`);
    const acceptor = await register(await playerContext(), `voice_b_${suffix}`);
    await creditPlayer(app.baseUrl, `voice_a_${suffix}`, '20');
    await creditPlayer(app.baseUrl, `voice_b_${suffix}`, '20');

    const created = await creator.request.post('/api/challenges', {
      data: {
        game: 'Street Fighter 6',
        amount: 5,
        gamerTag: 'Ryu',
        phoneNumber: '5550107777',
        console: 'PC',
      },
    });
    expect(created.status()).toBe(201);
    const { id } = (await created.json()) as { id: number };
    expect((await acceptor.request.post(`/api/challenges/${id}/accept`)).status()).toBe(200);

    await creator.goto(`/challenges/${id}`);
    await acceptor.goto(`/challenges/${id}`);
    await creator.getByRole('heading', { name: 'VOICE CHAT' }).waitFor();
    await acceptor.getByRole('heading', { name: 'VOICE CHAT' }).waitFor();

    await acceptor.getByRole('button', { name: 'Connect' }).click();
    await creator.getByRole('button', { name: 'Connect' }).click();
    await creator.locator('[data-voice-status="connected"]').waitFor({ timeout: 15_000 });
    await acceptor.locator('[data-voice-status="connected"]').waitFor({ timeout: 15_000 });
    await creator.getByText('Voice chat connection established.').first().waitFor();

    // Audio flows both ways: inbound RTP bytes grow on each side.
    const before = await Promise.all([audioStats(creator), audioStats(acceptor)]);
    await pause(2000);
    const after = await Promise.all([audioStats(creator), audioStats(acceptor)]);
    expect(after[0].inboundBytes).toBeGreaterThan(before[0].inboundBytes);
    expect(after[1].inboundBytes).toBeGreaterThan(before[1].inboundBytes);
    expect(after[0].outboundEnergy).toBeGreaterThan(before[0].outboundEnergy);

    // Mute: the creator's microphone stops feeding the call.
    await creator.getByRole('button', { name: 'Mute' }).click();
    await creator.getByText('Your microphone is now muted.').first().waitFor();
    await pause(500);
    const mutedStart = await audioStats(creator);
    await pause(1500);
    const mutedEnd = await audioStats(creator);
    expect(mutedEnd.outboundEnergy - mutedStart.outboundEnergy).toBeLessThan(1e-6);
    await creator.getByRole('button', { name: 'Unmute' }).click();
    await creator.getByText('Your microphone is now active.').first().waitFor();

    // Disconnect returns both sides to not connected.
    await creator.getByRole('button', { name: 'Disconnect' }).click();
    await creator.getByText('Voice chat has been disconnected.').first().waitFor();
    expect(await voiceStatus(creator)).toBe('idle');
    await acceptor.locator('[data-voice-status="waiting"]').waitFor({ timeout: 10_000 });
    await creator.getByRole('button', { name: 'Connect' }).waitFor();

    // A dropped call can be joined again with Connect.
    await creator.getByRole('button', { name: 'Connect' }).click();
    await creator.locator('[data-voice-status="connected"]').waitFor({ timeout: 15_000 });
    await acceptor.locator('[data-voice-status="connected"]').waitFor({ timeout: 15_000 });

    // A third user sees no voice panel.
    const browser = await launchBrowser();
    try {
      const context = await browser.newContext({ baseURL: app.baseUrl });
      const outsider = await context.newPage();
      await outsider.goto('/auth');
      await outsider.getByRole('tab', { name: 'Register' }).click();
      await outsider.getByLabel('Username', { exact: true }).fill(`voice_c_${suffix}`);
      await outsider.getByLabel('Password', { exact: true }).fill('voice-password');
      await outsider.getByLabel('Phone Number').fill('+1 555 010 7778');
      await outsider.getByLabel('State').selectOption({ label: 'New York' });
      await outsider.getByRole('checkbox').check();
      await outsider.getByRole('button', { name: 'CREATE ACCOUNT' }).click();
      await outsider.waitForURL(`${app.baseUrl}/`);
      await outsider.goto(`/challenges/${id}`);
      await outsider.getByText('MATCH IN PROGRESS').waitFor();
      expect(await outsider.getByRole('heading', { name: 'VOICE CHAT' }).count()).toBe(0);
    } finally {
      await browser.close();
    }
  }, 120_000);
});
