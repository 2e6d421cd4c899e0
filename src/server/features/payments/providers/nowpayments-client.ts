import { z } from '#shared/validation.ts';
import { PaymentProviderError, type ProviderFailureKind } from './types.ts';

/**
 * One client for NOWPayments' REST API, which both deposits (`nowpayments-crypto-provider.ts`)
 * and payouts (the payouts feature's provider) call: the key, the time limit, the parsing of its
 * answers and what a failure is, in one place.
 */
export interface NowPaymentsClientOptions {
  apiKey: string;
  /** Origin of the API, without `/v1`: https://api.nowpayments.io, or the sandbox's. */
  apiBase: string;
  timeoutMs?: number;
  /**
   * What a refusal (a 4xx or 5xx other than 404) means to the caller: a request refused as it
   * stands is not worth retrying, anything else is `unavailable` (the default).
   */
  refusalKind?: (status: number, problem: string) => ProviderFailureKind;
}

export interface NowPaymentsCall {
  body?: object;
  /** A JWT from `POST /v1/auth`, for the calls that need one (payouts). */
  bearer?: string;
}

/** A refusal that says nothing more than its status: NOWPayments' `{code, message}` body. */
const problemSchema = z.object({ code: z.string().optional(), message: z.string().optional() });

/** A NOWPayments API failure: its kind, and the HTTP status when it answered at all. */
export class NowPaymentsError extends PaymentProviderError {
  override name = 'NowPaymentsError';
  constructor(
    kind: ProviderFailureKind,
    message: string,
    readonly status: number | null,
    options?: { cause?: unknown },
  ) {
    super(kind, message, options);
  }
}

export interface NowPaymentsClient {
  /**
   * Calls the API: its JSON answer, or its text when a 2xx answer is a bare word ("OK"). A
   * failure throws a `NowPaymentsError`: `not_found` for a 404, `refusalKind`'s for any other
   * refusal, `unavailable` when it did not answer or answered what is not JSON.
   */
  call(method: 'GET' | 'POST', path: string, request?: NowPaymentsCall): Promise<unknown>;
  /** `json` through `schema`, or `unavailable` naming `what` was unexpected. */
  parse<T>(schema: z.ZodType<T>, json: unknown, what: string): T;
}

export function createNowPaymentsClient(options: NowPaymentsClientOptions): NowPaymentsClient {
  const base = options.apiBase.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 15_000;
  const refusalKind = options.refusalKind ?? (() => 'unavailable' as const);

  return {
    async call(method, path, request = {}) {
      const { body, bearer } = request;
      let response: Response;
      let text: string;
      try {
        response = await fetch(`${base}${path}`, {
          method,
          headers: {
            'x-api-key': options.apiKey,
            accept: 'application/json',
            ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
            ...(body ? { 'content-type': 'application/json' } : {}),
          },
          ...(body ? { body: JSON.stringify(body) } : {}),
          signal: AbortSignal.timeout(timeoutMs),
        });
        text = await response.text();
      } catch (error) {
        throw new NowPaymentsError('unavailable', `NOWPayments ${method} ${path} failed`, null, {
          cause: error,
        });
      }
      let json: unknown;
      try {
        json = text === '' ? null : JSON.parse(text);
      } catch (error) {
        if (response.ok) return text;
        throw new NowPaymentsError(
          'unavailable',
          `NOWPayments ${method} ${path} answered ${response.status} with a body that is not JSON`,
          response.status,
          { cause: error },
        );
      }
      if (response.ok) return json;
      const parsed = problemSchema.safeParse(json);
      const problem = parsed.success
        ? `${parsed.data.code ?? ''} ${parsed.data.message ?? ''}`.trim()
        : '';
      const detail = `NOWPayments ${method} ${path} answered ${response.status} ${problem}`.trim();
      const kind = response.status === 404 ? 'not_found' : refusalKind(response.status, problem);
      throw new NowPaymentsError(kind, detail, response.status);
    },

    parse(schema, json, what) {
      const parsed = schema.safeParse(json);
      if (!parsed.success) {
        throw new NowPaymentsError(
          'unavailable',
          `NOWPayments sent an unexpected ${what}: ${parsed.error.message}`,
          null,
        );
      }
      return parsed.data;
    },
  };
}
