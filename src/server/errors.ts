import type { ErrorBody, ErrorCode } from '#shared/contracts/errors.ts';

const STATUS_BY_CODE: Record<ErrorCode, number> = {
  VALIDATION_FAILED: 400,
  USERNAME_TAKEN: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  FORBIDDEN: 403,
  CROSS_ORIGIN_REFUSED: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  IDEMPOTENCY_CONFLICT: 409,
  INSUFFICIENT_BALANCE: 400,
  CHALLENGE_NOT_OPEN: 409,
  CHALLENGE_NOT_ACCEPTED: 409,
  OWN_CHALLENGE: 400,
  NOT_PARTICIPANT: 403,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  SERVICE_UNAVAILABLE: 503,
  PAYMENT_DECLINED: 402,
  PAYMENT_NOT_COMPLETED: 409,
  INVALID_SIGNATURE: 400,
  PAYOUT_NOT_PENDING: 409,
  CHALLENGE_NOT_DISPUTED: 409,
  VERIFICATION_NOT_PENDING: 409,
  ACCOUNT_SUSPENDED: 403,
  INVALID_TOKEN: 400,
  INVALID_CODE: 401,
  TWO_FACTOR_SETUP_REQUIRED: 403,
  LOCATION_NOT_ALLOWED: 403,
  IDENTITY_NOT_VERIFIED: 403,
  PAYOUT_LIMIT_EXCEEDED: 400,
  DEPOSIT_LIMIT_EXCEEDED: 400,
  PLAY_PAUSED: 403,
  MONEY_HELD: 409,
  TOURNAMENT_NOT_OPEN: 409,
  TOURNAMENT_FULL: 409,
  LINKED_ACCOUNTS: 409,
  MONEY_LOCKED: 403,
  CARD_MONEY: 400,
};

/** A refusal the client caused or may see: it carries a stable code and a message for people. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: { fields?: Record<string, string>; retryAfter?: number } = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const INTERNAL_MESSAGE = 'Something went wrong on our side. Please try again.';

interface FastifyLikeError {
  statusCode?: number;
  code?: string;
  validation?: Array<{ instancePath?: string; message?: string }>;
  validationContext?: string;
}

function isFastifyLikeError(error: unknown): error is Error & FastifyLikeError {
  return error instanceof Error;
}

/**
 * Maps anything thrown by a handler to the HTTP status and body the client sees. It is the only
 * place that decides this. Unknown errors become a 500 whose body says nothing about internals.
 */
export function toHttpError(error: unknown): { status: number; body: ErrorBody } {
  if (error instanceof AppError) {
    const body: ErrorBody = { code: error.code, message: error.message };
    if (error.details.fields) body.fields = error.details.fields;
    if (error.details.retryAfter !== undefined) body.retryAfter = error.details.retryAfter;
    return { status: STATUS_BY_CODE[error.code], body };
  }
  if (!isFastifyLikeError(error)) {
    return { status: 500, body: { code: 'INTERNAL', message: INTERNAL_MESSAGE } };
  }
  if (error.validation && error.validation.length > 0) {
    const fields: Record<string, string> = {};
    for (const issue of error.validation) {
      const field = (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
      const key = field || error.validationContext || 'body';
      fields[key] ??= issue.message ?? 'Invalid input';
    }
    const message = Object.values(fields)[0] ?? 'Invalid input';
    return { status: 400, body: { code: 'VALIDATION_FAILED', message, fields } };
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
      return {
        status: 413,
        body: { code: 'PAYLOAD_TOO_LARGE', message: 'The request is too large.' },
      };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return {
        status: 415,
        body: { code: 'UNSUPPORTED_MEDIA_TYPE', message: 'This content type is not accepted.' },
      };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return {
        status: 400,
        body: { code: 'VALIDATION_FAILED', message: 'The body is not valid JSON.' },
      };
  }
  // Fastify's own 4xx errors (bad JSON, bad content length, ...) are the client's doing.
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return {
      status: error.statusCode,
      body: { code: 'VALIDATION_FAILED', message: error.message || 'Invalid input' },
    };
  }
  return { status: 500, body: { code: 'INTERNAL', message: INTERNAL_MESSAGE } };
}
