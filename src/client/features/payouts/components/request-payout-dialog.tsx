import { useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Link } from 'wouter';
import { Bitcoin, Send } from 'lucide-react';
import type { PublicUser } from '#shared/contracts/auth.ts';
import {
  checkPayoutRequest,
  OFFERED_PAYOUT_METHODS,
  PAYOUT_REQUEST_CHECK_PARAMS,
  PAYOUT_DETAILS_PLACEHOLDER,
  PAYOUT_MESSAGES,
  PAYOUT_MIN_CENTS,
  payoutAmountSchema,
  payoutRequestFieldsSchema,
  type PayoutMethodValue,
  type PayoutOptions,
  type PayoutRequestBody,
} from '#shared/contracts/payouts.ts';
import { z } from '#shared/validation.ts';
import { centsToDecimalString, dollarNumberToCents, type Cents } from '#shared/money.ts';
import { Button } from '#client/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from '#client/components/ui/dialog.tsx';
import { Field } from '#client/components/ui/field.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { NativeSelect } from '#client/components/ui/native-select.tsx';
import { Textarea } from '#client/components/ui/textarea.tsx';
import { ApiError } from '#client/lib/api-client.ts';
import { applyServerFieldErrors } from '#client/lib/form-errors.ts';
import { formatDollars } from '#client/lib/format.ts';
import { Spinner } from '#client/components/ui/spinner.tsx';
import { usePayoutLimits } from '../api/get-payout-limits.ts';
import { usePayoutOptions } from '../api/get-payout-options.ts';
import { useRequestPayout, type RequestPayoutInput } from '../api/request-payout.ts';
import { payoutMethodLabel } from '../lib/payout-display.ts';

const FIELD_NAMES = [
  'amount',
  'paymentMethod',
  'paymentDetails',
  'phoneNumber',
  'currency',
  'address',
  'extraId',
] as const;

/** The coin select's last choice: no coin address, the SPEC's free-text details instead. */
const OTHER_COIN = '';

/**
 * What the form holds for the request: with a coin chosen, its address (and memo) and no free
 * text; with "Other", the free text alone, as a SPEC client sends it (docs/payouts.md).
 */
function requestOf(values: PayoutRequestBody): PayoutRequestBody {
  const { currency, address, extraId, paymentDetails, ...rest } = values;
  if (currency === OTHER_COIN || currency === undefined) return { ...rest, paymentDetails };
  return { ...rest, currency, address, ...(extraId ? { extraId } : {}) };
}

/**
 * docs/product.md#validation says the form's default method is paypal while only crypto is offered.
 * A default that is not among the options would be sent without the player ever seeing it (and the
 * server refuses it), so the effective default is the first method actually offered: crypto.
 */
const DEFAULT_METHOD: PayoutMethodValue = OFFERED_PAYOUT_METHODS[0] ?? 'crypto';

/**
 * The shared request schema plus the wallet check against the balance on screen, on the amount
 * itself so that it shows together with any other field's message. The server checks again
 * under the wallet's lock and has the final word (the balance may change while the dialog is open).
 */
export function payoutFormSchema(balanceCents: Cents) {
  return z.preprocess(
    requestOf,
    payoutRequestFieldsSchema
      .extend({
        amount: payoutAmountSchema.refine(
          (amountCents) => amountCents <= balanceCents,
          PAYOUT_MESSAGES.insufficientBalance,
        ),
      })
      .superRefine((body, ctx) => checkPayoutRequest(body, ctx), PAYOUT_REQUEST_CHECK_PARAMS),
  );
}

function RequestPayoutForm({
  user,
  options,
  onRequested,
}: {
  user: PublicUser;
  options: PayoutOptions;
  onRequested: () => void;
}) {
  const requestPayout = useRequestPayout(user.id);
  // docs/responsible-play.md: no payout before an admin approves the player's ID; the way there is
  // offered.
  const [identityNeeded, setIdentityNeeded] = useState<string>();
  const balanceCents = dollarNumberToCents(user.available);
  const resolver = useMemo(() => zodResolver(payoutFormSchema(balanceCents)), [balanceCents]);
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    control,
    formState: { errors, isSubmitting },
  } = useForm<PayoutRequestBody, unknown, RequestPayoutInput>({
    resolver,
    defaultValues: {
      amount: '',
      paymentMethod: DEFAULT_METHOD,
      currency: options.coins[0]?.code ?? OTHER_COIN,
      address: '',
      extraId: '',
      paymentDetails: '',
      phoneNumber: user.phoneNumber ?? '',
    },
  });
  const chosen = useWatch({ control, name: 'currency' });
  const coin = options.coins.find((offered) => offered.code === chosen);
  const limits = usePayoutLimits();
  const cardOnly = limits.data && limits.data.refundableToCard > 0 ? limits.data : null;

  const onSubmit = handleSubmit(async (values) => {
    setIdentityNeeded(undefined);
    try {
      await requestPayout.mutateAsync(values);
      onRequested();
    } catch (error) {
      if (error instanceof ApiError && error.code === 'IDENTITY_NOT_VERIFIED') {
        setIdentityNeeded(error.message);
      }
      applyServerFieldErrors(error, setError, FIELD_NAMES);
    }
  });

  // isSubmitting covers validation as well as the request, so a second click can never send a
  // second payout while the first is on its way.
  const busy = isSubmitting || requestPayout.isPending;

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-5">
      {identityNeeded && (
        <p
          role="alert"
          className="rounded-md border border-amber-400/50 bg-amber-400/10 p-3 text-sm text-amber-100"
        >
          {identityNeeded}{' '}
          <Link
            href="/profile"
            className="rounded-sm font-semibold text-accent underline underline-offset-4 hover:text-accent-strong"
          >
            Upload your driver's licence
          </Link>
        </p>
      )}
      <Field
        label="Amount ($)"
        error={errors.amount?.message}
        hint={`Minimum ${formatDollars(1)}, up to your available balance of ${formatDollars(user.available)}.`}
      >
        {(control) => (
          <Input
            {...control}
            type="number"
            inputMode="decimal"
            min={centsToDecimalString(PAYOUT_MIN_CENTS)}
            max={centsToDecimalString(balanceCents)}
            step="0.01"
            placeholder="e.g. 25"
            {...register('amount')}
          />
        )}
      </Field>
      {cardOnly && (
        <p className="rounded-md border border-ink-600 bg-ink-800 p-3 text-sm text-slate-300">
          Withdrawable now: {formatDollars(cardOnly.withdrawable)}. Refundable to your card:{' '}
          {formatDollars(cardOnly.refundableToCard)}, which came by card and clears once it is{' '}
          {cardOnly.cardClearingHours} hours old and played through.
        </p>
      )}
      <Field label="Payment Method" error={errors.paymentMethod?.message}>
        {(control) => (
          <NativeSelect {...control} {...register('paymentMethod')}>
            {OFFERED_PAYOUT_METHODS.map((method) => (
              <option key={method} value={method}>
                {payoutMethodLabel(method)}
              </option>
            ))}
          </NativeSelect>
        )}
      </Field>
      <Field
        label="Phone Number"
        error={errors.phoneNumber?.message}
        hint="We may call to confirm a large payout."
      >
        {(control) => (
          <Input
            {...control}
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            {...register('phoneNumber')}
          />
        )}
      </Field>
      <Field
        label="Coin"
        error={errors.currency?.message}
        hint={
          options.mode === 'manual'
            ? 'An admin sends each payout by hand.'
            : 'Sent by itself in minutes when no review is needed.'
        }
      >
        {(control) => (
          <NativeSelect
            {...control}
            {...register('currency', {
              // A memo typed for another coin would be sent, and refused under a hidden field.
              onChange: () => setValue('extraId', ''),
            })}
          >
            {options.coins.map((offered) => (
              <option key={offered.code} value={offered.code}>
                {offered.label}
              </option>
            ))}
            <option value={OTHER_COIN}>Other (describe below)</option>
          </NativeSelect>
        )}
      </Field>
      {coin ? (
        <>
          <Field
            label={`${coin.label} address`}
            error={errors.address?.message}
            hint="Double-check the address: crypto payouts cannot be reversed."
          >
            {(control) => (
              <Input
                {...control}
                autoComplete="off"
                spellCheck={false}
                className="font-mono"
                {...register('address')}
              />
            )}
          </Field>
          {coin.memoLabel && (
            <Field label={coin.memoLabel} error={errors.extraId?.message}>
              {(control) => (
                <Input
                  {...control}
                  autoComplete="off"
                  spellCheck={false}
                  {...register('extraId')}
                />
              )}
            </Field>
          )}
        </>
      ) : (
        <Field
          label="Payment Details"
          error={errors.paymentDetails?.message}
          hint="Double-check the address: crypto payouts cannot be reversed. An admin sends these by hand."
        >
          {(control) => (
            <Textarea
              {...control}
              rows={3}
              placeholder={PAYOUT_DETAILS_PLACEHOLDER}
              autoComplete="off"
              spellCheck={false}
              {...register('paymentDetails')}
            />
          )}
        </Field>
      )}
      <Button type="submit" size="lg" className="w-full" disabled={busy}>
        <Send aria-hidden="true" />
        {busy ? 'SUBMITTING...' : 'SUBMIT REQUEST'}
      </Button>
    </form>
  );
}

/**
 * docs/product.md#screens: the Request Payout dialog. A balance below the minimum cannot be
 * withdrawn.
 */
export function RequestPayoutDialog({ user }: { user: PublicUser }) {
  const [open, setOpen] = useState(false);
  const options = usePayoutOptions();
  const belowMinimum = dollarNumberToCents(user.available) < PAYOUT_MIN_CENTS;
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <div className="space-y-2">
        <DialogTrigger asChild>
          <Button size="lg" className="w-full" disabled={belowMinimum}>
            <Bitcoin aria-hidden="true" />
            Request Payout
          </Button>
        </DialogTrigger>
        {belowMinimum && (
          <p className="text-sm text-slate-400">
            You need at least {formatDollars(1)} to request a payout.
          </p>
        )}
      </div>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Request Payout</DialogTitle>
          <DialogDescription>
            The amount is held from your balance until the payout is sent to your crypto wallet.
          </DialogDescription>
        </DialogHeader>
        {options.data ? (
          <RequestPayoutForm
            user={user}
            options={options.data}
            onRequested={() => setOpen(false)}
          />
        ) : options.isError ? (
          <p role="alert" className="text-sm text-red-300">
            The payout form could not load. Please close it and try again.
          </p>
        ) : (
          <div className="flex justify-center py-6">
            <Spinner label="Loading the payout form" />
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
