import { useEffect, useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Copy, Download, KeyRound, ShieldCheck, ShieldOff } from 'lucide-react';
import type { PublicUser } from '#shared/contracts/auth.ts';
import type { TwoFactorSetup } from '#shared/contracts/account-security.ts';
import { Badge } from '#client/components/ui/badge.tsx';
import { Button } from '#client/components/ui/button.tsx';
import {
  Card,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '#client/components/ui/card.tsx';
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
import { ApiError, serverText } from '#client/lib/api-client.ts';
import { applyServerFieldErrors } from '#client/lib/form-errors.ts';
import { toast } from '#client/lib/toast.ts';
import { useDisableTwoFactor } from '../api/disable-two-factor.ts';
import { useEnableTwoFactor } from '../api/enable-two-factor.ts';
import { useSetupTwoFactor } from '../api/setup-two-factor.ts';

/** The secret in groups of four, as authenticator apps ask for it to be typed. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

/** An error the server tied to none of the form's fields, in a toast. */
function toastUnlessField(error: Error, fields: readonly string[]): void {
  if (error instanceof ApiError && fields.some((name) => error.fields?.[name])) return;
  toast({
    title: 'Two-factor sign-in',
    description: error instanceof ApiError ? serverText(error) : error.message,
    variant: 'destructive',
  });
}

/** The first step: the password, so that a session left open cannot lock its owner out. */
function SetupStart({ setup }: { setup: ReturnType<typeof useSetupTwoFactor> }) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({ defaultValues: { password: '' } });
  const onSubmit = handleSubmit((values) =>
    setup.mutate(values, {
      onError: (error) => {
        applyServerFieldErrors(error, setError, ['password']);
        toastUnlessField(error, ['password']);
      },
    }),
  );
  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-4">
      <p className="text-sm text-slate-300">
        Add a code from an authenticator app to every sign-in, so a stolen password alone cannot
        open your account.
      </p>
      <Field label="Your password" error={errors.password?.message}>
        {(control) => (
          <Input
            {...control}
            type="password"
            autoComplete="current-password"
            {...register('password')}
          />
        )}
      </Field>
      <Button
        type="submit"
        variant="outline"
        size="sm"
        className="w-full"
        disabled={setup.isPending}
      >
        <KeyRound aria-hidden="true" />
        {setup.isPending ? 'PREPARING...' : 'SET UP'}
      </Button>
    </form>
  );
}

function SetupStep({
  setup,
  onEnabled,
  onCancel,
}: {
  setup: TwoFactorSetup;
  onEnabled: (recoveryCodes: string[]) => void;
  onCancel: () => void;
}) {
  const enable = useEnableTwoFactor();
  const secretId = useId();
  const stepsRef = useRef<HTMLOListElement>(null);
  // The SET UP button is gone: the steps take the focus, and are read from the first.
  useEffect(() => stepsRef.current?.focus(), []);
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors },
  } = useForm({ defaultValues: { code: '' } });

  const onSubmit = handleSubmit((values) =>
    enable.mutate(values, {
      onSuccess: ({ recoveryCodes }) => onEnabled(recoveryCodes),
      onError: (error) => {
        applyServerFieldErrors(error, setError, ['code']);
        toastUnlessField(error, ['code']);
        setFocus('code');
      },
    }),
  );

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-4">
      <ol
        ref={stepsRef}
        tabIndex={-1}
        aria-label="Set up two-factor sign-in"
        className="list-decimal space-y-3 rounded-md pl-5 text-sm text-slate-300 focus:outline-none"
      >
        <li>
          Scan this QR code with an authenticator app (Google Authenticator, 1Password, Authy…).
          <img
            src={setup.qrCode}
            alt="QR code to add SkillStake to your authenticator app"
            width={176}
            height={176}
            className="mt-2 size-44 rounded-md bg-white p-1"
          />
        </li>
        <li>
          <span id={secretId}>No camera? Type this key into the app instead:</span>
          <code
            aria-labelledby={secretId}
            className="mt-1 block rounded-md border border-ink-600 bg-ink-900 px-3 py-2 font-mono text-sm break-all text-slate-100 select-all"
          >
            {grouped(setup.secret)}
          </code>
        </li>
        <li>Enter the 6-digit code the app shows.</li>
      </ol>
      <Field label="Code from the app" error={errors.code?.message}>
        {(control) => (
          <Input
            {...control}
            autoComplete="one-time-code"
            inputMode="numeric"
            placeholder="123456"
            className="font-mono tracking-widest"
            {...register('code')}
          />
        )}
      </Field>
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={enable.isPending}>
          <ShieldCheck aria-hidden="true" />
          {enable.isPending ? 'ENABLING...' : 'ENABLE'}
        </Button>
        <Button type="button" variant="ghost" onClick={onCancel}>
          CANCEL
        </Button>
      </div>
    </form>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const text = `SkillStake recovery codes\n\n${codes.join('\n')}\n`;

  // Focus moves to the codes, so a screen reader reads the warning before anything else.
  useEffect(() => headingRef.current?.focus(), []);

  const copy = () => {
    navigator.clipboard.writeText(text).then(
      () => toast({ title: 'Recovery codes copied' }),
      () =>
        toast({
          title: 'Could not copy',
          description: 'Select the codes and copy them by hand.',
          variant: 'destructive',
        }),
    );
  };

  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'skillstake-recovery-codes.txt';
    link.click();
    // After the click has been handled: revoking at once can cancel the download.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  };

  return (
    <section
      aria-labelledby={headingId}
      className="space-y-4 rounded-lg border border-amber-400/50 bg-amber-400/10 p-4"
    >
      <h3
        id={headingId}
        ref={headingRef}
        tabIndex={-1}
        className="font-display text-sm font-bold tracking-widest text-amber-200 focus:outline-none"
      >
        SAVE THESE RECOVERY CODES NOW
      </h3>
      <p className="text-sm text-amber-50">
        Each code signs you in once if you lose your phone. They are shown only this once: copy or
        download them and keep them somewhere safe.
      </p>
      <ul
        aria-label="Recovery codes"
        className="grid grid-cols-2 gap-x-4 gap-y-1 font-mono text-sm text-white"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="outline" size="sm" onClick={copy}>
          <Copy aria-hidden="true" />
          COPY
        </Button>
        <Button type="button" variant="outline" size="sm" onClick={download}>
          <Download aria-hidden="true" />
          DOWNLOAD
        </Button>
        <Button type="button" size="sm" onClick={onDone}>
          I HAVE SAVED THEM
        </Button>
      </div>
    </section>
  );
}

function DisableDialog({ onDisabled }: { onDisabled: () => void }) {
  const [open, setOpen] = useState(false);
  const disable = useDisableTwoFactor();
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm({ defaultValues: { password: '', code: '' } });

  const onSubmit = handleSubmit((values) =>
    disable.mutate(values, {
      onSuccess: () => {
        setOpen(false);
        toast({ title: 'Two-factor sign-in is off' });
        onDisabled();
      },
      onError: (error) => {
        applyServerFieldErrors(error, setError, ['password', 'code']);
        toastUnlessField(error, ['password', 'code']);
      },
    }),
  );

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) reset();
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline" size="sm" className="w-full">
          <ShieldOff aria-hidden="true" />
          TURN OFF
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Turn off two-factor sign-in</DialogTitle>
          <DialogDescription>
            Confirm with your password and a code from your app (or a recovery code). Your recovery
            codes stop working.
          </DialogDescription>
        </DialogHeader>
        <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-5">
          <Field label="Password" error={errors.password?.message}>
            {(control) => (
              <Input
                {...control}
                type="password"
                autoComplete="current-password"
                {...register('password')}
              />
            )}
          </Field>
          <Field label="Code or recovery code" error={errors.code?.message}>
            {(control) => (
              <Input
                {...control}
                autoComplete="one-time-code"
                autoCapitalize="off"
                spellCheck={false}
                className="font-mono tracking-widest"
                {...register('code')}
              />
            )}
          </Field>
          <Button
            type="submit"
            variant="destructive"
            size="lg"
            className="w-full"
            disabled={disable.isPending}
          >
            <ShieldOff aria-hidden="true" />
            {disable.isPending ? 'TURNING OFF...' : 'TURN OFF'}
          </Button>
        </form>
      </DialogContent>
    </Dialog>
  );
}

export interface TwoFactorCardProps {
  user: PublicUser;
  /** Called when the player has saved the recovery codes of a fresh set-up (the admin page). */
  onFinished?: () => void;
}

/**
 * Two-factor sign-in on the profile (docs/accounts.md#account-security): whether it is on; the
 * set-up with a QR code and the key typed by hand; the recovery codes, shown once; and turning it
 * off.
 */
export function TwoFactorCard({ user, onFinished }: TwoFactorCardProps) {
  const titleId = useId();
  const titleRef = useRef<HTMLHeadingElement>(null);
  // When the control that had the focus goes away, the card's title takes it.
  const focusTitle = () => setTimeout(() => titleRef.current?.focus(), 0);
  const setup = useSetupTwoFactor();
  const [recoveryCodes, setRecoveryCodes] = useState<string[]>();
  const enabled = user.twoFactorEnabled;

  const body = recoveryCodes ? (
    <RecoveryCodes
      codes={recoveryCodes}
      onDone={() => {
        setRecoveryCodes(undefined);
        if (onFinished) onFinished();
        else focusTitle();
      }}
    />
  ) : setup.data && !enabled ? (
    <SetupStep
      setup={setup.data}
      onEnabled={(codes) => {
        setup.reset();
        setRecoveryCodes(codes);
      }}
      onCancel={() => {
        setup.reset();
        focusTitle();
      }}
    />
  ) : enabled ? (
    <>
      <p className="text-sm text-slate-300">
        Each sign-in asks for a code from your authenticator app after your password.
      </p>
      <DisableDialog onDisabled={focusTitle} />
    </>
  ) : (
    <SetupStart setup={setup} />
  );

  return (
    <Card aria-labelledby={titleId}>
      <CardHeader>
        <div className="flex items-center justify-between gap-3">
          <CardTitle id={titleId} ref={titleRef} tabIndex={-1} className="focus:outline-none">
            Two-Factor Sign-In
          </CardTitle>
          <Badge variant={enabled ? 'success' : 'neutral'}>{enabled ? 'On' : 'Off'}</Badge>
        </div>
        <CardDescription>A code from your phone as well as your password.</CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">{body}</CardContent>
    </Card>
  );
}
