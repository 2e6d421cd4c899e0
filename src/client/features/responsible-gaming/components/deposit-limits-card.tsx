import { useId, useState, type FormEvent } from 'react';
import { Gauge } from 'lucide-react';
import {
  LIMIT_KEYS,
  LIMIT_NAMES,
  limitAmountSchema,
  RESPONSIBLE_GAMING_MESSAGES,
  type LimitKey,
  type ResponsibleGaming,
} from '#shared/contracts/responsible-gaming.ts';
import { Button } from '#client/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '#client/components/ui/card.tsx';
import { Field } from '#client/components/ui/field.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { ApiError, serverText } from '#client/lib/api-client.ts';
import { formatDateTime, formatDollars } from '#client/lib/format.ts';
import { useSetLimits, type LimitChanges } from '../api/responsible-gaming.ts';

type Texts = Record<LimitKey, string>;
type Errors = Partial<Record<LimitKey | 'form', string>>;

const asText = (amount: number | null) => (amount === null ? '' : amount.toFixed(2));

/**
 * The limits the player edited: a field left as it was shown sends nothing, so that saving one
 * limit never touches another, nor a raise that is waiting. A field emptied removes its limit.
 */
function changesFrom(texts: Texts, shown: Texts): { changes: LimitChanges; errors: Errors } {
  const changes: LimitChanges = {};
  const errors: Errors = {};
  for (const key of LIMIT_KEYS) {
    const text = texts[key].trim();
    if (text === shown[key].trim()) continue;
    if (text === '') {
      changes[key] = null;
      continue;
    }
    const parsed = limitAmountSchema.safeParse(text);
    if (!parsed.success) {
      errors[key] = parsed.error.issues[0]?.message ?? RESPONSIBLE_GAMING_MESSAGES.limitInvalid;
      continue;
    }
    changes[key] = text;
  }
  return { changes, errors };
}

/**
 * The player's deposit limits (docs/responsible-play.md): what each allows and what is left of it
 * now, a raise waiting for its 24 hours, and the form that changes them. A blank field means no
 * limit.
 */
export function DepositLimitsCard({ rules }: { rules: ResponsibleGaming }) {
  const titleId = useId();
  const setLimits = useSetLimits();
  const [shown] = useState<Texts>(() => ({
    daily: asText(rules.limits.daily.amount),
    weekly: asText(rules.limits.weekly.amount),
    monthly: asText(rules.limits.monthly.amount),
  }));
  const [texts, setTexts] = useState<Texts>(shown);
  const [errors, setErrors] = useState<Errors>({});

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    // The button stays enabled while saving, so that it keeps the keyboard focus.
    if (setLimits.isPending) return;
    const { changes, errors: found } = changesFrom(texts, shown);
    if (Object.keys(found).length > 0) {
      setErrors(found);
      return;
    }
    if (Object.keys(changes).length === 0) {
      setErrors({ form: RESPONSIBLE_GAMING_MESSAGES.nothingToChange });
      return;
    }
    setErrors({});
    setLimits.mutate(changes, {
      onError: (failure) =>
        setErrors(
          failure instanceof ApiError
            ? { ...failure.fields, form: failure.fields ? undefined : serverText(failure) }
            : { form: failure.message },
        ),
    });
  };

  return (
    <Card aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId}>Deposit limits</CardTitle>
        <CardDescription>
          Cap what you can deposit in any 24 hours, 7 days or 30 days. A lower limit applies at
          once; a higher one, or none, applies 24 hours after you ask.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-5">
        <dl className="grid gap-3 sm:grid-cols-3">
          {LIMIT_KEYS.map((key) => {
            const limit = rules.limits[key];
            return (
              <div key={key} className="rounded-md border border-ink-600 bg-ink-900/60 p-3">
                <dt className="font-display text-xs font-bold tracking-widest text-slate-300">
                  {LIMIT_NAMES[key].toUpperCase()}
                </dt>
                <dd className="mt-1 text-lg font-semibold text-white">
                  {limit.amount === null ? 'No limit' : formatDollars(limit.amount)}
                </dd>
                <dd className="text-sm text-slate-300">
                  {limit.left === null
                    ? `${formatDollars(limit.used)} deposited`
                    : `${formatDollars(limit.left)} left`}
                </dd>
                {limit.pending && (
                  <dd className="mt-1 text-sm text-amber-200">
                    {limit.pending.amount === null
                      ? `No limit from ${formatDateTime(limit.pending.at)}`
                      : `Rises to ${formatDollars(limit.pending.amount)} on ${formatDateTime(limit.pending.at)}`}
                  </dd>
                )}
              </div>
            );
          })}
        </dl>
        <form noValidate onSubmit={onSubmit} className="space-y-4">
          <div className="grid gap-4 sm:grid-cols-3">
            {LIMIT_KEYS.map((key) => (
              <Field
                key={key}
                label={`${LIMIT_NAMES[key]} limit ($)`}
                hint="Blank for no limit"
                error={errors[key]}
              >
                {(control) => (
                  <Input
                    {...control}
                    name={key}
                    inputMode="decimal"
                    autoComplete="off"
                    value={texts[key]}
                    onChange={(event) => setTexts({ ...texts, [key]: event.target.value })}
                  />
                )}
              </Field>
            ))}
          </div>
          {errors.form && (
            <p role="alert" className="text-sm font-medium text-red-400">
              {errors.form}
            </p>
          )}
          <Button type="submit" variant="outline">
            <Gauge aria-hidden="true" />
            {setLimits.isPending ? 'SAVING...' : 'SAVE LIMITS'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
