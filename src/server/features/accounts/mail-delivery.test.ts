import { like } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SECURITY_MESSAGES } from '#shared/contracts/account-security.ts';
import type { PublicUser } from '#shared/contracts/auth.ts';
import { outbox } from '#server/db/schema/outbox.ts';
import { smtpTransport } from '#server/features/mail/worker.ts';
import { startSmtpSink, type SmtpSink } from '#tests/helpers/smtp-server.ts';
import {
  Agent,
  createTestApp,
  markEmailVerified,
  signUp,
  type TestApp,
} from '#tests/helpers/test-app.ts';

let sink: SmtpSink;
let t: TestApp;

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await createTestApp({
    env: { PUBLIC_URL: 'https://play.example.com' },
    mailTransport: smtpTransport(sink.url, 'SkillStake <no-reply@example.com>'),
    // Far longer than the test waits: only being woken can deliver the mail in time.
    mailEveryMs: 10 * 60_000,
  });
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

it('a reset link leaves at once through SMTP, and the link from the delivered mail works', async () => {
  const player = await signUp(t.app, { email: 'smtp-reader@example.com' });
  await markEmailVerified(t.database, player.user.id);
  const before = sink.deliveries.length;

  const asked = Date.now();
  const response = await new Agent(t.app).post('/api/password-reset', {
    username: player.user.username,
  });
  expect(response.json()).toEqual({ message: SECURITY_MESSAGES.resetRequested });
  await expect
    .poll(() => sink.deliveries.slice(before).some((mail) => /reset-password/.test(mail.text)), {
      timeout: 5_000,
      interval: 10,
    })
    .toBe(true);
  const mail = sink.deliveries.slice(before).find((each) => /reset-password/.test(each.text))!;
  expect(mail.at - asked).toBeLessThan(5_000);
  expect(mail.to).toEqual(['smtp-reader@example.com']);
  expect(mail.text).toMatch(/^Subject: Reset your SkillStake password$/m);

  // Once sent, the outbox no longer holds the working link.
  await expect
    .poll(async () => {
      const rows = await t.database.db
        .select({ body: outbox.body, sentAt: outbox.sentAt })
        .from(outbox)
        .where(like(outbox.dedupeKey, 'password-reset:%'));
      return rows.map((row) => [row.sentAt !== null, row.body.includes('token=')]);
    })
    .toEqual([[true, false]]);
  const link = /https:\/\/play\.example\.com\/reset-password\?token=([\w%-]+)/.exec(mail.text);
  expect(link).not.toBeNull();
  const browser = new Agent(t.app);
  const done = await browser.post('/api/password-reset/complete', {
    token: decodeURIComponent(link![1]!),
    newPassword: 'read-from-the-mail',
  });
  expect(done.statusCode).toBe(200);
  expect(done.json<PublicUser>().username).toBe(player.user.username);
  const login = await new Agent(t.app).post('/api/login', {
    username: player.user.username,
    password: 'read-from-the-mail',
  });
  expect(login.statusCode).toBe(200);
});
