import { useId } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Swords, Zap } from 'lucide-react';
import {
  CHALLENGE_AMOUNT_MAX,
  CHALLENGE_AMOUNT_MIN,
  CONSOLES,
  createChallengeBodySchema,
  type CreateChallengeBody,
} from '#shared/contracts/challenges.ts';
import { Link } from 'wouter';
import { dollarNumberToCents } from '#shared/money.ts';
import { stakeMoneyLine } from '#shared/stake-terms.ts';
import { Button } from '#client/components/ui/button.tsx';
import { cn } from '#client/lib/cn.ts';
import { formatDollars } from '#client/lib/format.ts';
import { Field } from '#client/components/ui/field.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { NativeSelect } from '#client/components/ui/native-select.tsx';
import { applyServerFieldErrors } from '#client/lib/form-errors.ts';
import { toNumberOrNaN } from '#client/lib/form-values.ts';
import { useCreateChallenge, type CreateChallengeInput } from '../api/create-challenge.ts';
import { useQuickMatch } from '../api/quick-match.ts';
import { useOpponentSuggestions } from '../api/suggest-opponents.ts';

const FIELD_NAMES = [
  'game',
  'amount',
  'gamerTag',
  'phoneNumber',
  'console',
  'mode',
  'platform',
  'opponent',
] as const;

export interface CreateChallengeFormProps {
  onCreated: () => void;
  /** The player's own number, offered as the contact for this match. */
  defaultPhoneNumber?: string | null;
  /** The player's available balance: a stake above it is pointed out, with the way to deposit. */
  available?: number | undefined;
  /**
   * `quick-match` asks for the terms only (docs/challenges.md#finding-an-opponent) and meets the
   * first player on them; the contact fields stay, for the challenge it opens when nobody waits.
   */
  intent?: 'create' | 'quick-match';
}

/** A whole-dollar stake within the bounds, in cents; null while the amount is not one. */
function stakeOf(amount: unknown): bigint | null {
  if (typeof amount !== 'number' || !Number.isInteger(amount)) return null;
  if (amount < CHALLENGE_AMOUNT_MIN || amount > CHALLENGE_AMOUNT_MAX) return null;
  return BigInt(amount) * 100n;
}

/**
 * The money of the stake typed, as it is typed: what is staked and what a win pays after the fee;
 * a stake above the available balance says so, with the way to deposit. Empty (and hidden) while
 * the amount is not a stake.
 */
function StakeNote({
  stakeCents,
  available,
  className,
}: {
  stakeCents: bigint | null;
  available: number | undefined;
  className?: string;
}) {
  const short =
    stakeCents !== null && available !== undefined && dollarNumberToCents(available) < stakeCents;
  // Always in the page, so that screen readers announce the text when it changes.
  return (
    <p aria-live="polite" className={cn('text-sm text-slate-200 empty:hidden', className)}>
      {stakeCents !== null && stakeMoneyLine(stakeCents)}
      {short && (
        <>
          {' '}
          <span className="text-amber-200">
            You have {formatDollars(available)} available.
          </span>{' '}
          <Link
            href="/profile"
            className="rounded-sm font-semibold text-accent underline underline-offset-4 hover:text-accent-strong"
          >
            DEPOSIT FUNDS
          </Link>
        </>
      )}
    </p>
  );
}

/** The body of the Create Challenge dialog, validated with the same schema as the server. */
export function CreateChallengeForm({
  onCreated,
  defaultPhoneNumber,
  available,
  intent = 'create',
}: CreateChallengeFormProps) {
  const createChallenge = useCreateChallenge();
  const quickMatch = useQuickMatch();
  const pending = createChallenge.isPending || quickMatch.isPending;
  const {
    register,
    handleSubmit,
    setError,
    control: formControl,
    formState: { errors },
  } = useForm<CreateChallengeBody, unknown, CreateChallengeInput>({
    resolver: zodResolver(createChallengeBodySchema),
    defaultValues: {
      game: '',
      gamerTag: '',
      phoneNumber: defaultPhoneNumber ?? '',
      mode: '',
      platform: '',
      opponent: '',
    },
  });

  const typedAmount = useWatch({ control: formControl, name: 'amount' });
  const stake = stakeOf(typedAmount);
  const suggestionsId = useId();
  const typedOpponent = useWatch({ control: formControl, name: 'opponent' });
  const suggestions = useOpponentSuggestions(intent === 'create' ? typedOpponent : undefined);

  const onSubmit = handleSubmit((values) => {
    const handlers = {
      onSuccess: onCreated,
      onError: (error: Error) => applyServerFieldErrors(error, setError, FIELD_NAMES),
    };
    if (intent === 'create') {
      createChallenge.mutate(values, handlers);
      return;
    }
    const { game, amount, gamerTag, phoneNumber } = values;
    quickMatch.mutate({ game, amount, console: values.console, gamerTag, phoneNumber }, handlers);
  });

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-5">
      <Field label="Game" error={errors.game?.message}>
        {(control) => <Input {...control} placeholder="e.g. EA FC 25" {...register('game')} />}
      </Field>
      <div className="grid gap-5 sm:grid-cols-2">
        <Field
          label="Amount ($)"
          error={errors.amount?.message}
          hint={`Whole dollars, ${CHALLENGE_AMOUNT_MIN} to ${CHALLENGE_AMOUNT_MAX.toLocaleString('en-US')}`}
        >
          {(control) => (
            <Input
              {...control}
              type="text"
              inputMode="numeric"
              placeholder="e.g. 25"
              {...register('amount', { setValueAs: toNumberOrNaN })}
            />
          )}
        </Field>
        <StakeNote
          stakeCents={stake}
          available={available}
          className="sm:order-last sm:col-span-2"
        />
        <Field label="Console" error={errors.console?.message}>
          {(control) => (
            <NativeSelect {...control} {...register('console')}>
              <option value="">Select a console</option>
              {CONSOLES.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </NativeSelect>
          )}
        </Field>
      </div>
      <Field label="Gamer Tag" error={errors.gamerTag?.message}>
        {(control) => <Input {...control} autoComplete="nickname" {...register('gamerTag')} />}
      </Field>
      <Field
        label="Phone Number"
        error={errors.phoneNumber?.message}
        hint="Shown only to your opponent, so you can arrange the match."
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
      {intent === 'create' && (
        <>
          <div className="grid gap-5 sm:grid-cols-2">
            <Field label="Mode (optional)" error={errors.mode?.message}>
              {(control) => (
                <Input {...control} placeholder="e.g. 1v1, best of 3" {...register('mode')} />
              )}
            </Field>
            <Field label="Platform (optional)" error={errors.platform?.message}>
              {(control) => (
                <Input {...control} placeholder="e.g. PSN, Steam" {...register('platform')} />
              )}
            </Field>
          </div>
          <Field
            label="Opponent (optional)"
            error={errors.opponent?.message}
            hint="A username sends the challenge to that player only. Leave empty for anyone."
          >
            {(control) => (
              <>
                <Input
                  {...control}
                  list={suggestionsId}
                  autoComplete="off"
                  autoCapitalize="none"
                  spellCheck={false}
                  {...register('opponent')}
                />
                <datalist id={suggestionsId}>
                  {suggestions.data?.usernames.map((username) => (
                    <option key={username} value={username} />
                  ))}
                </datalist>
              </>
            )}
          </Field>
        </>
      )}
      <Button type="submit" size="lg" className="w-full" disabled={pending}>
        {intent === 'create' ? <Swords aria-hidden="true" /> : <Zap aria-hidden="true" />}
        {intent === 'create'
          ? pending
            ? 'CREATING...'
            : 'CREATE CHALLENGE'
          : pending
            ? 'MATCHING...'
            : 'FIND A MATCH'}
      </Button>
    </form>
  );
}
