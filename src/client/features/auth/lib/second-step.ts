/**
 * Where a finished password step that still needs its two-factor code (a password reset of an
 * account with two-factor sign-in, docs/accounts.md#account-security) hands over: the login tab
 * opens on its second step, where the code is entered (the pending sign-in's cookie is already
 * set).
 */
export const SECOND_STEP_PATH = '/auth?step=code';

export function opensOnSecondStep(search: string): boolean {
  return new URLSearchParams(search).get('step') === 'code';
}

/** The note that goes with it, for a player who expected to be signed in already. */
export const SECOND_STEP_NOTE =
  'Your password has been reset. Finish signing in with the code from your authenticator app.';
