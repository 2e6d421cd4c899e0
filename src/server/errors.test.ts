import { describe, expect, it } from 'vitest';
import { AppError, INTERNAL_MESSAGE, toHttpError } from './errors.ts';

describe('toHttpError', () => {
  it('maps each stable code to its status and keeps fields and retryAfter', () => {
    expect(toHttpError(new AppError('NOT_FOUND', 'Challenge not found'))).toEqual({
      status: 404,
      body: { code: 'NOT_FOUND', message: 'Challenge not found' },
    });
    expect(toHttpError(new AppError('INSUFFICIENT_BALANCE', 'Insufficient balance')).status).toBe(
      400,
    );
    expect(toHttpError(new AppError('FORBIDDEN', 'no')).status).toBe(403);
    expect(toHttpError(new AppError('IDEMPOTENCY_CONFLICT', 'no')).status).toBe(409);
    expect(
      toHttpError(
        new AppError('RATE_LIMITED', 'slow down', { retryAfter: 30, fields: { a: 'b' } }),
      ),
    ).toEqual({
      status: 429,
      body: { code: 'RATE_LIMITED', message: 'slow down', retryAfter: 30, fields: { a: 'b' } },
    });
  });

  it('turns schema validation failures into a 400 with per-field messages', () => {
    const error = Object.assign(new Error('bad'), {
      statusCode: 400,
      validationContext: 'body',
      validation: [
        { instancePath: '/username', message: 'Username must be at least 3 characters' },
        { instancePath: '/username', message: 'second message for the same field' },
        { instancePath: '', message: 'Invalid input' },
      ],
    });
    expect(toHttpError(error)).toEqual({
      status: 400,
      body: {
        code: 'VALIDATION_FAILED',
        message: 'Username must be at least 3 characters',
        fields: { username: 'Username must be at least 3 characters', body: 'Invalid input' },
      },
    });
  });

  it('never leaks the text of an unexpected error', () => {
    const result = toHttpError(new Error('connection to 10.0.0.5 failed: password authentication'));
    expect(result).toEqual({ status: 500, body: { code: 'INTERNAL', message: INTERNAL_MESSAGE } });
    expect(toHttpError('a thrown string')).toEqual(result);
    const serverSide = Object.assign(new Error('pool exhausted'), { statusCode: 503 });
    expect(toHttpError(serverSide)).toEqual(result);
  });

  it('maps body-size and media-type errors', () => {
    const large = Object.assign(new Error('too large'), {
      code: 'FST_ERR_CTP_BODY_TOO_LARGE',
      statusCode: 413,
    });
    expect(toHttpError(large).status).toBe(413);
    const media = Object.assign(new Error('x'), {
      code: 'FST_ERR_CTP_INVALID_MEDIA_TYPE',
      statusCode: 415,
    });
    expect(toHttpError(media).status).toBe(415);
  });
});
