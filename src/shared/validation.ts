import { z } from 'zod';

/**
 * The product's generic fallback messages (docs/product.md#validation): every zod issue that a
 * schema does not word itself reads "Required" when the value is missing and "Invalid input"
 * otherwise. Both the server and the client import this module before any schema runs, so the two
 * sides agree on the words.
 */
export const FALLBACK_MESSAGES = {
  required: 'Required',
  invalid: 'Invalid input',
  invalidDate: 'Invalid date',
} as const;

z.config({
  // In the browser the Content-Security-Policy forbids eval. Zod's JIT probes for it with
  // `new Function`, and Chromium reports every such probe as a CSP violation even though zod
  // catches the error; jitless skips the probe. The server keeps the faster compiled parsers.
  // Set before any schema exists: each object schema reads it when it is created.
  jitless: typeof document !== 'undefined',
  customError: (issue) => {
    if (issue.code === 'invalid_type' && issue.input === undefined)
      return FALLBACK_MESSAGES.required;
    if (issue.code === 'invalid_type' && issue.expected === 'date') {
      return FALLBACK_MESSAGES.invalidDate;
    }
    return FALLBACK_MESSAGES.invalid;
  },
});

export { z };
