/**
 * The history state with which a finished password step that still needs its two-factor code
 * (a password reset of an account with two-factor sign-in, DESIGN §16) hands over to /auth: the
 * login tab reads it to open on its second step, where the code is entered.
 */
export const SECOND_STEP_STATE = { twoFactorRequired: true } as const;

/** The note that goes with it, for a player who expected to be signed in already. */
export const SECOND_STEP_NOTE =
  'Your password has been reset. Finish signing in with the code from your authenticator app.';
