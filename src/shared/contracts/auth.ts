import { LOCATION_MESSAGES, STATE_CODES } from '../us-states.ts';
import { z } from '../validation.ts';

export { publicUserSchema, type PublicUser } from './user.ts';

/** Registration and login rules, word for word from docs/product.md#validation. */
export const USERNAME_MIN = 3;
export const USERNAME_MAX = 30;
export const PASSWORD_MIN = 6;
export const PASSWORD_MAX = 100;
export const PHONE_MIN = 10;
export const PHONE_MAX = 15;
export const EMAIL_MAX = 254;

export const AUTH_MESSAGES = {
  usernameMin: 'Username must be at least 3 characters',
  usernameMax: 'Username must be at most 30 characters',
  usernamePattern: 'Username can only contain letters, numbers, and underscores',
  passwordMin: 'Password must be at least 6 characters',
  passwordMax: 'Password must be at most 100 characters',
  phoneMin: 'Phone number must be at least 10 digits',
  phoneMax: 'Phone number must be at most 15 digits',
  phonePattern: 'Please enter a valid phone number',
  email: 'Please enter a valid email address',
  age: 'You must be at least 21 years old and in a valid location to register.',
  usernameRequired: 'Username is required',
  passwordRequired: 'Password is required',
  usernameTaken: 'Username already exists',
  usernameReserved: 'This username is not available',
  invalidCredentials: 'Invalid username or password',
  registrationFailed: 'Registration failed. Please try again.',
} as const;

/**
 * What a username is made of: ASCII letters, digits and underscores (docs/product.md#validation).
 */
export const USERNAME_PATTERN = /^[A-Za-z0-9_]+$/;

export const usernameSchema = z
  .string()
  .trim()
  .min(USERNAME_MIN, AUTH_MESSAGES.usernameMin)
  .max(USERNAME_MAX, AUTH_MESSAGES.usernameMax)
  .regex(USERNAME_PATTERN, AUTH_MESSAGES.usernamePattern);

/**
 * Whether `name` could name an account: registration allows nothing else, and a closed account's
 * name (`deleted_user_{id}`) is made of the same characters. A name that fails this is looked up
 * nowhere: outside ASCII, JavaScript's lower case and PostgreSQL's disagree (`İ`), and a
 * look-alike of a real name must not count as a name of its own.
 */
export function isPossibleUsername(name: string): boolean {
  return name.length <= USERNAME_MAX * 2 && USERNAME_PATTERN.test(name);
}

export const passwordSchema = z
  .string()
  .min(PASSWORD_MIN, AUTH_MESSAGES.passwordMin)
  .max(PASSWORD_MAX, AUTH_MESSAGES.passwordMax);

export const phoneNumberSchema = z
  .string()
  .trim()
  .min(PHONE_MIN, AUTH_MESSAGES.phoneMin)
  .max(PHONE_MAX, AUTH_MESSAGES.phoneMax)
  .regex(/^\+?[\d\s\-()]+$/, AUTH_MESSAGES.phonePattern);

/** An e-mail address, or nothing: an empty field means "not provided". */
export const optionalEmailSchema = z
  .string()
  .trim()
  .max(EMAIL_MAX, AUTH_MESSAGES.email)
  .pipe(z.union([z.literal(''), z.email(AUTH_MESSAGES.email)]))
  .optional()
  .transform((value) => (value ? value.toLowerCase() : undefined));

/** A US state or DC by its two-letter code (docs/responsible-play.md). */
export const stateCodeSchema = z.enum(STATE_CODES, LOCATION_MESSAGES.stateInvalid);

/** A state that must be given: none (or the select's empty choice) asks for one. */
const requiredStateSchema = z.enum(STATE_CODES, {
  error: (issue) =>
    issue.input === undefined || issue.input === ''
      ? LOCATION_MESSAGES.stateRequired
      : LOCATION_MESSAGES.stateInvalid,
});

/** `PATCH /api/user`: the player moves to another state (docs/responsible-play.md). */
export const updateStateBodySchema = z.strictObject({ state: requiredStateSchema });
export type UpdateStateBody = z.input<typeof updateStateBodySchema>;

export { DELETED_USERNAME_PREFIX } from '../lobby.ts';

export const registerBodySchema = z.strictObject({
  username: usernameSchema,
  password: passwordSchema,
  phoneNumber: phoneNumberSchema,
  email: optionalEmailSchema,
  isOver18: z.literal(true, AUTH_MESSAGES.age),
  /**
   * The player's US state (docs/responsible-play.md); a SPEC client leaves it out, and its word is
   * the box.
   */
  state: stateCodeSchema.optional(),
});
export type RegisterBody = z.input<typeof registerBodySchema>;

/** The registration form: the API takes a SPEC registration without a state, the form asks. */
export const registerFormSchema = registerBodySchema.extend({ state: requiredStateSchema });

export const loginBodySchema = z.strictObject({
  username: z
    .string()
    .trim()
    .min(1, AUTH_MESSAGES.usernameRequired)
    .max(USERNAME_MAX * 4),
  password: z
    .string()
    .min(1, AUTH_MESSAGES.passwordRequired)
    .max(PASSWORD_MAX * 4),
});
export type LoginBody = z.input<typeof loginBodySchema>;
