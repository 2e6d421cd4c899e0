// npm run bench:payouts — the time from a payout request to its `sent` stage (DESIGN §15), for
// auto-approved payouts with the TEST MODE provider, on the built server and the embedded
// database: ten verified players each ask for $20 in USDT, and the time from sending the request
// to reading `sent` back (polled every 20 ms) is reported as the median and the slowest. The
// request wakes this instance's sender; a payout queued on another instance waits at most for
// that instance's next pass (PAYOUT_SEND_INTERVAL_MS, 5 s). Exits non-zero only if something
// broke, never for slowness.
import { loadavg } from 'node:os';
import { LICENSE_FIELD } from '../../src/shared/contracts/profile.ts';
import { adminCall, approveLicence, PNG_1X1, startApp } from '../../tests/e2e/harness.ts';
import { median, table } from './common.ts';
import { sessionCookieOf } from '#tests/helpers/cookies.ts';

const PAYOUTS = Number(process.env.BENCH_PAYOUTS ?? 10);
const TRON = 'TXYZopYRdj2D9XRtbG411XZZ3kM5VkAeBf';

async function verifiedPlayer(baseUrl: string, index: number): Promise<string> {
  const username = `bench_payout_${process.pid % 10_000}_${index}`;
  const registered = await fetch(`${baseUrl}/api/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      username,
      password: 'bench-payout-password',
      phoneNumber: '+1 555 010 7100',
      isOver18: true,
    }),
  });
  if (registered.status !== 201) throw new Error(`register: ${await registered.text()}`);
  const cookie = sessionCookieOf(registered);
  const { id } = (await registered.json()) as { id: number };
  await adminCall(baseUrl, 'POST', `/api/admin/users/${id}/balance`, { amount: '50' });
  const form = new FormData();
  form.append(LICENSE_FIELD, new Blob([PNG_1X1], { type: 'image/png' }), 'licence.png');
  const upload = await fetch(`${baseUrl}/api/user/upload-license`, {
    method: 'POST',
    headers: { cookie },
    body: form,
  });
  if (upload.status !== 201) throw new Error(`upload: ${await upload.text()}`);
  await approveLicence(baseUrl, username);
  return cookie;
}

async function timeToSent(baseUrl: string, cookie: string): Promise<number> {
  const started = performance.now();
  const asked = await fetch(`${baseUrl}/api/payouts`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie },
    body: JSON.stringify({
      amount: 20,
      paymentMethod: 'crypto',
      phoneNumber: '+1 555 010 7100',
      currency: 'usdttrc20',
      address: TRON,
    }),
  });
  if (asked.status !== 201) throw new Error(`payout: ${await asked.text()}`);
  const { payout } = (await asked.json()) as { payout: { id: number; stage: string } };
  if (payout.stage !== 'queued') throw new Error(`payout ${payout.id} was not auto-approved`);
  for (;;) {
    const list = (await (
      await fetch(`${baseUrl}/api/payouts`, { headers: { cookie } })
    ).json()) as Array<{ id: number; stage: string }>;
    if (list.find((row) => row.id === payout.id)?.stage === 'sent') {
      return performance.now() - started;
    }
    if (performance.now() - started > 120_000) throw new Error(`payout ${payout.id} never sent`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const app = await startApp({ LOG_LEVEL: 'warn' });
try {
  const times: number[] = [];
  for (let index = 0; index < PAYOUTS; index += 1) {
    const cookie = await verifiedPlayer(app.baseUrl, index);
    times.push(await timeToSent(app.baseUrl, cookie));
  }
  times.sort((a, b) => a - b);
  process.stdout.write(
    `request → sent, ${times.length} auto-approved sandbox payouts (load ${loadavg()[0]?.toFixed(2)}):\n` +
      table([
        {
          median: `${median(times).toFixed(0)} ms`,
          fastest: `${(times[0] ?? Number.NaN).toFixed(0)} ms`,
          slowest: `${(times.at(-1) ?? Number.NaN).toFixed(0)} ms`,
        },
      ]) +
      '\n(a payout queued on another instance waits at most one sender pass: 5 s)\n',
  );
} finally {
  await app.stop();
}
