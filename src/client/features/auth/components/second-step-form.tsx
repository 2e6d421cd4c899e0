import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { ArrowLeft, ShieldCheck } from 'lucide-react';
import { Button } from '#client/components/ui/button.tsx';
import { Field } from '#client/components/ui/field.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { ApiError, serverText } from '#client/lib/api-client.ts';
import { useLoginSecondStep } from '../api/login-second-step.ts';

export interface SecondStepFormProps {
  /** Back to the password: the player asked, or the pending sign-in expired (with its message). */
  onRestart: (message?: string) => void;
}

/**
 * The second step of a two-factor sign-in (docs/accounts.md#account-security): a code from the
 * authenticator app, or a recovery code. Phones get a digit keypad for the app's code; a recovery
 * code has letters, so the player can switch the field to a keyboard that has them.
 */
export function SecondStepForm({ onRestart }: SecondStepFormProps) {
  const secondStep = useLoginSecondStep();
  const [recovery, setRecovery] = useState(false);
  const helpId = useId();
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors },
  } = useForm({ defaultValues: { code: '' } });

  // The field takes the focus when the step appears, and again when its kind is switched.
  useEffect(() => setFocus('code'), [recovery, setFocus]);

  // An empty code is refused by the server's contract, in its words, under the field: the
  // contracts are not loaded on this page before they are needed.
  const onSubmit = handleSubmit((values) => {
    secondStep.mutate(values, {
      onError: (error) => {
        if (error instanceof ApiError && error.code === 'INVALID_CODE' && !error.fields?.code) {
          // Five minutes or five tries are over: the password step must be done again.
          onRestart(serverText(error));
          return;
        }
        const message =
          error instanceof ApiError ? (error.fields?.code ?? serverText(error)) : error.message;
        setError('code', { type: 'server', message });
      },
    });
  });

  return (
    <form noValidate onSubmit={(event) => void onSubmit(event)} className="space-y-5">
      <div className="space-y-1">
        <h2 className="font-display text-sm font-bold tracking-widest text-accent uppercase">
          Two-factor sign-in
        </h2>
        <p id={helpId} className="text-sm text-slate-300">
          Enter the 6-digit code from your authenticator app, or a recovery code.
        </p>
      </div>
      <Field
        label={recovery ? 'Recovery code' : 'Authentication code'}
        error={errors.code?.message}
      >
        {(control) => (
          <Input
            {...control}
            aria-describedby={[control['aria-describedby'], helpId].filter(Boolean).join(' ')}
            autoComplete="one-time-code"
            inputMode={recovery ? 'text' : 'numeric'}
            autoCapitalize="off"
            spellCheck={false}
            placeholder={recovery ? 'xxxxx-xxxxx' : '123456'}
            className="font-mono tracking-widest"
            {...register('code')}
          />
        )}
      </Field>
      <Button type="submit" size="lg" className="w-full" disabled={secondStep.isPending}>
        <ShieldCheck aria-hidden="true" />
        {secondStep.isPending ? 'VERIFYING...' : 'VERIFY'}
      </Button>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Button type="button" variant="ghost" size="sm" onClick={() => onRestart()}>
          <ArrowLeft aria-hidden="true" />
          BACK
        </Button>
        <Button
          type="button"
          variant="ghost"
          size="sm"
          onClick={() => setRecovery((current) => !current)}
        >
          {recovery ? 'Use the app code' : 'Use a recovery code'}
        </Button>
      </div>
    </form>
  );
}
