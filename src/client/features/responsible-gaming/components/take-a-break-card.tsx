import { useId, useState } from 'react';
import { Coffee, ShieldOff } from 'lucide-react';
import type { ResponsibleGaming } from '#shared/contracts/responsible-gaming.ts';
import {
  playBreakEnd,
  playBreakMessage,
  SELF_EXCLUSION_MONTHS,
  selfExclusionLabel,
  TIME_OUT_DAYS,
  timeOutLabel,
  type SelfExclusionMonths,
  type TimeOutDays,
} from '#shared/play-breaks.ts';
import {
  AlertDialog,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogTitle,
  AlertDialogTrigger,
} from '#client/components/ui/alert-dialog.tsx';
import { Button } from '#client/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '#client/components/ui/card.tsx';
import { Field } from '#client/components/ui/field.tsx';
import { NativeSelect } from '#client/components/ui/native-select.tsx';
import { ApiError, serverText } from '#client/lib/api-client.ts';
import { formatDateTime } from '#client/lib/format.ts';
import { useTakeBreak, type BreakChoice } from '../api/responsible-gaming.ts';

interface BreakKind {
  title: string;
  description: string;
  field: string;
  options: Array<{ value: number; label: string }>;
  button: string;
  confirm: string;
  choice: (value: number) => BreakChoice;
  icon: typeof Coffee;
}

const TIME_OUT: BreakKind = {
  title: 'Take a time-out',
  description:
    'A short break from cash play: no deposits, new challenges or accepting challenges until it ends.',
  field: 'Time-out length',
  options: TIME_OUT_DAYS.map((days) => ({ value: days, label: timeOutLabel(days) })),
  button: 'TAKE A TIME-OUT',
  confirm: 'YES, START MY TIME-OUT',
  choice: (value) => ({ days: value as TimeOutDays }),
  icon: Coffee,
};

const SELF_EXCLUSION: BreakKind = {
  title: 'Exclude yourself',
  description:
    'A long break for when play is no longer fun: the same stop as a time-out, for months or years.',
  field: 'Self-exclusion length',
  options: SELF_EXCLUSION_MONTHS.map((months) => ({
    value: months,
    label: selfExclusionLabel(months),
  })),
  button: 'EXCLUDE MYSELF',
  confirm: 'YES, EXCLUDE ME',
  choice: (value) => ({ months: value as SelfExclusionMonths }),
  icon: ShieldOff,
};

/** One kind of break: its length, and a confirmation that names the end before anything starts. */
function BreakForm({ kind }: { kind: BreakKind }) {
  const [value, setValue] = useState(kind.options[0]?.value ?? 0);
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string>();
  const takeBreak = useTakeBreak();
  const choice = kind.choice(value);
  // What the dialog names is what the server will set, give or take the seconds of reading it.
  const end = playBreakEnd(new Date(), choice).toISOString();
  const label = kind.options.find((option) => option.value === value)?.label ?? '';
  const Icon = kind.icon;

  return (
    <div className="space-y-3">
      <h3 className="font-display text-sm font-bold tracking-wider text-white">{kind.title}</h3>
      <p className="text-sm text-slate-300">{kind.description}</p>
      <Field label={kind.field}>
        {(control) => (
          <NativeSelect
            {...control}
            value={String(value)}
            onChange={(event) => setValue(Number(event.target.value))}
          >
            {kind.options.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </NativeSelect>
        )}
      </Field>
      <AlertDialog
        open={open}
        onOpenChange={(next) => {
          setOpen(next);
          if (next) setError(undefined);
        }}
      >
        <AlertDialogTrigger asChild>
          <Button variant="outline">
            <Icon aria-hidden="true" />
            {kind.button}
          </Button>
        </AlertDialogTrigger>
        <AlertDialogContent>
          <AlertDialogTitle>
            {kind.title} for {label}?
          </AlertDialogTitle>
          <AlertDialogDescription>
            Until {formatDateTime(end)} you will not be able to deposit, create or accept
            challenges, and your open challenges will be withdrawn with the stakes returned. You can
            still sign in, follow your matches and withdraw your available balance. Nobody, not you
            and not our support, can end it early.
          </AlertDialogDescription>
          {error && (
            <p role="alert" className="mt-3 text-sm font-medium text-red-400">
              {error}
            </p>
          )}
          <AlertDialogFooter>
            <AlertDialogCancel asChild>
              <Button variant="outline">KEEP PLAYING</Button>
            </AlertDialogCancel>
            <Button
              variant="destructive"
              onClick={() => {
                if (takeBreak.isPending) return;
                takeBreak.mutate(choice, {
                  onSuccess: () => setOpen(false),
                  onError: (failure) =>
                    setError(failure instanceof ApiError ? serverText(failure) : failure.message),
                });
              }}
            >
              {takeBreak.isPending ? 'STARTING...' : kind.confirm}
            </Button>
          </AlertDialogFooter>
        </AlertDialogContent>
      </AlertDialog>
    </div>
  );
}

/**
 * Time-out and self-exclusion (docs/responsible-play.md). During a break the card says until when;
 * a longer break can still be taken, never a shorter one (the server refuses it, saying so).
 */
export function TakeABreakCard({ rules }: { rules: ResponsibleGaming }) {
  const titleId = useId();
  return (
    <Card aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId}>Take a break</CardTitle>
        <CardDescription>
          Step away from cash play for a while. A break cannot be shortened or ended early; it ends
          by itself.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-6">
        {rules.playBreak && (
          <p
            role="status"
            className="rounded-md border border-amber-400/50 bg-amber-400/10 p-3 text-sm text-amber-100"
          >
            {playBreakMessage(rules.playBreak)}
          </p>
        )}
        <div className="grid gap-6 sm:grid-cols-2">
          <BreakForm kind={TIME_OUT} />
          <BreakForm kind={SELF_EXCLUSION} />
        </div>
      </CardContent>
    </Card>
  );
}
