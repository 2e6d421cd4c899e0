import { useEffect, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { DEPOSIT_MIN_CENTS, type CryptoPaymentResponse } from '#shared/contracts/payments.ts';
import type { Cents } from '#shared/money.ts';
import { isHttpsUrl } from '#shared/contracts/uploads.ts';
import { toast } from '#client/lib/toast.ts';
import { createCryptoPayment } from '../api/create-crypto-payment.ts';
import { notifyCryptoDeposit } from '../api/notify-crypto-deposit.ts';
import { isCryptoCooldownActive, recordCryptoPaymentError } from '../lib/crypto-cooldown.ts';
import {
  CRYPTO_COOLDOWN_PROBLEM,
  CRYPTO_TOO_SMALL_PROBLEM,
  cryptoCreationProblem,
  isCryptoServiceFailure,
  type CryptoProblem,
} from '../lib/crypto-deposit.ts';
import { DEPOSIT_MESSAGES, DEPOSIT_TITLES } from '../lib/deposit-messages.ts';
import { CRYPTO_CREATE_DELAY_MS } from '../lib/deposit-timing.ts';

export type CryptoDepositState =
  | { kind: 'creating' }
  | { kind: 'failed'; problem: CryptoProblem }
  | { kind: 'created'; payment: CryptoPaymentResponse };

interface Attempt {
  id: number;
  /** Set when this attempt may not call the server at all. */
  refused: CryptoProblem | null;
}

function newAttempt(id: number, amountCents: Cents): Attempt {
  if (amountCents < DEPOSIT_MIN_CENTS) return { id, refused: CRYPTO_TOO_SMALL_PROBLEM };
  if (isCryptoCooldownActive()) return { id, refused: CRYPTO_COOLDOWN_PROBLEM };
  return { id, refused: null };
}

/**
 * The fallback of docs/product.md#calls: the player's deposit is reported for an admin to follow
 * up, and the operator's payment page, when the server gives one, opens in a new window. A report
 * that fails too changes nothing on screen: the panel already shows why the payment failed.
 */
async function reportDepositForFollowUp(amountCents: Cents, currency: string): Promise<void> {
  let paymentUrl: string | null;
  try {
    ({ paymentUrl } = await notifyCryptoDeposit({ amountCents, currency }));
  } catch {
    return;
  }
  toast({ title: DEPOSIT_TITLES.cryptoInitiated, description: DEPOSIT_MESSAGES.cryptoInitiated });
  if (paymentUrl && isHttpsUrl(paymentUrl))
    window.open(paymentUrl, '_blank', 'noopener,noreferrer');
}

/**
 * Creates the crypto payment for the crypto panel (docs/product.md#screens,
 * docs/product.md#messages, docs/product.md#constants): refused outright under the minimum or
 * within 5 s of the last failure; otherwise created after a 1 s delay. Starting on mount through a
 * cancellable timer means a panel closed within that second (or React's development double mount)
 * creates nothing.
 */
export function useCryptoDeposit(
  amountCents: Cents,
  payCurrency: string,
): {
  state: CryptoDepositState;
  retry: () => void;
} {
  const [attempt, setAttempt] = useState(() => newAttempt(0, amountCents));
  const create = useMutation({
    mutationFn: () => createCryptoPayment(amountCents),
    onError: (error) => {
      recordCryptoPaymentError();
      if (isCryptoServiceFailure(error)) void reportDepositForFollowUp(amountCents, payCurrency);
    },
  });
  const { mutate, reset } = create;

  useEffect(() => {
    if (attempt.refused) return;
    const timer = setTimeout(() => mutate(), CRYPTO_CREATE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [attempt, mutate]);

  const retry = () => {
    reset();
    setAttempt(newAttempt(attempt.id + 1, amountCents));
  };

  let state: CryptoDepositState;
  if (attempt.refused) state = { kind: 'failed', problem: attempt.refused };
  else if (create.isError) state = { kind: 'failed', problem: cryptoCreationProblem(create.error) };
  else if (create.isSuccess) state = { kind: 'created', payment: create.data };
  else state = { kind: 'creating' };
  return { state, retry };
}
