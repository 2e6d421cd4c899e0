import { createHash } from 'node:crypto';
import { formatUtc } from '../../lib/format-time.ts';
import { RESET_TOKEN_MINUTES, VERIFY_TOKEN_HOURS } from '#shared/contracts/account-security.ts';
import type { Mail } from '../mail/index.ts';

// Security mail names the moment, the browser and the address, and always says what to do if it
// was not the player: these are the mails that let someone notice a stolen account.

const IF_NOT_YOU =
  'If this was not you, reset your password at once and sign out every other device from your profile.';

function keyOf(...parts: string[]): string {
  return createHash('sha256').update(parts.join('|')).digest('base64url').slice(0, 32);
}

export function resetLinkMail(
  to: { username: string; email: string },
  url: string,
  token: string,
): Mail {
  return {
    dedupeKey: `password-reset:${keyOf(token)}`,
    eraseBodyWhenSent: true,
    recipient: to.email,
    subject: 'Reset your SkillStake password',
    body:
      `Hi ${to.username},\n\nSomeone asked to reset the password of your SkillStake account. ` +
      `To choose a new one, open this link within ${RESET_TOKEN_MINUTES} minutes:\n\n${url}\n\n` +
      'The link works once. If you did not ask for it, ignore this mail: your password stays as it is.',
  };
}

export function verificationMail(
  to: { username: string; email: string },
  url: string,
  token: string,
): Mail {
  return {
    dedupeKey: `verify-email:${keyOf(token)}`,
    eraseBodyWhenSent: true,
    recipient: to.email,
    subject: 'Confirm your e-mail address for SkillStake',
    body:
      `Hi ${to.username},\n\nTo confirm that this address belongs to your SkillStake account, ` +
      `open this link within ${VERIFY_TOKEN_HOURS} hours:\n\n${url}\n\n` +
      'Until it is confirmed, this address receives no password-reset links or payout notices.',
  };
}

export function passwordChangedMail(
  to: { id: number; username: string; email: string },
  how: 'changed' | 'reset',
  at: Date,
): Mail {
  return {
    dedupeKey: `password-${how}:${to.id}:${at.getTime()}`,
    recipient: to.email,
    subject: `Your SkillStake password was ${how}`,
    body:
      `Hi ${to.username},\n\nThe password of your SkillStake account was ${how} on ${formatUtc(at)}, ` +
      `and every other session was signed out.\n\n${IF_NOT_YOU}`,
  };
}

export function newSignInMail(
  to: { id: number; username: string; email: string },
  device: { browser: string | null; address: string; place: string | null },
  at: Date,
  profileUrl: string,
): Mail {
  return {
    dedupeKey: `new-sign-in:${to.id}:${at.getTime()}:${keyOf(device.address)}`,
    recipient: to.email,
    subject: 'New sign-in to your SkillStake account',
    body:
      `Hi ${to.username},\n\nYour account was signed in to from a browser or place it has not ` +
      `used before:\n\n  Browser: ${device.browser ?? 'Unknown browser'}\n  Address: ${device.address}\n` +
      (device.place ? `  Place: ${device.place}\n` : '') +
      `  When: ${formatUtc(at)}\n\nYour devices are listed at ${profileUrl}. ${IF_NOT_YOU}`,
  };
}

export function emailChangedMail(
  to: { id: number; username: string; email: string },
  newEmail: string,
  at: Date,
): Mail {
  return {
    dedupeKey: `email-changed:${to.id}:${at.getTime()}`,
    recipient: to.email,
    subject: 'The e-mail address of your SkillStake account was changed',
    body:
      `Hi ${to.username},\n\nOn ${formatUtc(at)} the e-mail address of your SkillStake account ` +
      `was changed from this one to ${newEmail}. Password-reset links now go to the new address ` +
      `once it is confirmed.\n\n${IF_NOT_YOU}`,
  };
}
