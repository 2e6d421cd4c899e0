// Account security in a real browser (DESIGN §16): the links a player follows come out of mail
// that a real SMTP server on loopback received from the app's mail worker.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSmtpSink, type SmtpSink } from '#tests/helpers/smtp-server.ts';
import { launchBrowser, registerPlayer, signIn, startApp, type RunningApp } from './harness.ts';

let sink: SmtpSink;
let app: RunningApp;
let browser: Browser;

beforeAll(async () => {
  sink = await startSmtpSink();
  app = await startApp({ SMTP_URL: sink.url });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await app?.stop();
  await sink?.close();
});

/** The path and query of the newest link to `path` mailed to `address`, once it has arrived. */
async function linkInMail(address: string, path: string): Promise<string> {
  const pattern = new RegExp(`${path}\\?token=[\\w%-]+`);
  await expect
    .poll(
      () => sink.deliveries.some((mail) => mail.to.includes(address) && pattern.test(mail.text)),
      {
        timeout: 10_000,
        interval: 50,
      },
    )
    .toBe(true);
  const mail = sink.deliveries
    .filter((each) => each.to.includes(address) && pattern.test(each.text))
    .at(-1)!;
  return pattern.exec(mail.text)![0];
}

async function signOut(page: Page): Promise<void> {
  await page.context().clearCookies();
  await page.goto('/auth');
}

describe('account security in the browser', () => {
  it('verify the address from the mail; forgot password → link from the mail → new password → signed in', async () => {
    const player = await registerPlayer(browser, app.baseUrl);
    const address = `${player.username}@example.com`;
    const { page } = player;

    await page.goto('/profile');
    // The e-mail's badge; the ID card's NOT VERIFIED badge, once its data is in, also matches
    // a search that ignores case.
    await page.getByText('Not verified', { exact: true }).waitFor();
    await page.goto(await linkInMail(address, '/verify-email'));
    await page.getByRole('button', { name: 'VERIFY MY E-MAIL' }).click();
    await page.getByText('Your e-mail address is verified.').waitFor();
    await page.goto('/profile');
    await page.getByText('Verified', { exact: true }).waitFor();

    await signOut(page);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL(/\/reset-password$/);
    await page.getByLabel('Username').fill(player.username);
    await page.getByRole('button', { name: 'SEND RESET LINK' }).click();
    await page.getByText('If the account has a verified e-mail, a link is on its way.').waitFor();

    await page.goto(await linkInMail(address, '/reset-password'));
    await page.getByLabel('New password').fill('chosen-after-forgetting');
    await page.getByLabel('Confirm password').fill('chosen-after-forgetting');
    await page.getByRole('button', { name: 'RESET PASSWORD' }).click();
    await page.waitForURL(`${app.baseUrl}/`);
    const me = await page.evaluate(async () => (await fetch('/api/user')).json());
    expect(me).toMatchObject({ username: player.username, emailVerified: true });

    // The old password is gone, the new one works, and the player was told by mail.
    await signOut(page);
    await page.getByLabel('Username', { exact: true }).fill(player.username);
    await page.getByLabel('Password', { exact: true }).fill(player.password);
    await page.getByRole('button', { name: /LOGIN/ }).click();
    await page.getByText('Invalid username or password').first().waitFor();
    const again = await signIn(browser, app.baseUrl, {
      username: player.username,
      password: 'chosen-after-forgetting',
    });
    await again.context.close();
    expect(
      sink.deliveries.some(
        (mail) => mail.to.includes(address) && /Your SkillStake password was reset/.test(mail.text),
      ),
    ).toBe(true);
    await player.context.close();
  });

  it('the devices list shows the other browser, and SIGN OUT ends it', async () => {
    const player = await registerPlayer(browser, app.baseUrl);
    const other = await signIn(browser, app.baseUrl, player);
    await player.page.goto('/profile');
    const devices = player.page.getByRole('region', { name: 'Devices' });
    await devices.getByText('This device').waitFor();
    await devices
      .getByRole('button', { name: /^SIGN OUT/ })
      .first()
      .click();
    await expect
      .poll(async () => (await other.context.request.get('/api/user')).status())
      .toBe(401);
    expect((await player.context.request.get('/api/user')).status()).toBe(200);
    await other.context.close();
    await player.context.close();
  });
});
