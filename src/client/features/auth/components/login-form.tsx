import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useSearch } from 'wouter';
import { LogIn } from 'lucide-react';
import { Button } from '#client/components/ui/button.tsx';
import { Field } from '#client/components/ui/field.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { applyServerFieldErrors } from '#client/lib/form-errors.ts';
import { lazyZodResolver } from '#client/lib/lazy-zod-resolver.ts';
import { needsSecondStep, useLogin } from '../api/login.ts';
import { opensOnSecondStep } from '../lib/second-step.ts';
import { SecondStepForm } from './second-step-form.tsx';

const FIELD_NAMES = ['username', 'password'] as const;

async function loadLoginSchema() {
  return (await import('#shared/contracts/auth.ts')).loginBodySchema;
}

const resolver = lazyZodResolver(loadLoginSchema);

/**
 * The product's login (docs/product.md#screens); with two-factor sign-in on, the password step is
 * followed by a code.
 */
export function LoginForm() {
  // A password reset that still needs the code hands over here on its second step.
  const search = useSearch();
  const [step, setStep] = useState<'password' | 'code'>(() =>
    opensOnSecondStep(search) ? 'code' : 'password',
  );
  const [restartNotice, setRestartNotice] = useState<string>();
  if (step === 'code') {
    return (
      <SecondStepForm
        onRestart={(message) => {
          setRestartNotice(message);
          setStep('password');
        }}
      />
    );
  }
  return <PasswordStepForm notice={restartNotice} onCodeDue={() => setStep('code')} />;
}

function PasswordStepForm({
  notice,
  onCodeDue,
}: {
  notice?: string | undefined;
  onCodeDue: () => void;
}) {
  const login = useLogin();
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    formState: { errors },
  } = useForm({
    resolver,
    defaultValues: { username: '', password: '' },
  });
  // Back from an expired second step: the control that had the focus is gone; start again here.
  useEffect(() => {
    if (notice) setFocus('username');
  }, [notice, setFocus]);

  const onSubmit = handleSubmit((values) => {
    login.mutate(values, {
      onSuccess: (result) => {
        if (needsSecondStep(result)) onCodeDue();
      },
      onError: (error) => applyServerFieldErrors(error, setError, FIELD_NAMES),
    });
  });

  return (
    <form
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      // A failed download here is tried again by the first check.
      onFocus={() => void loadLoginSchema().catch(() => undefined)}
      className="space-y-5"
    >
      {notice && (
        <p
          role="alert"
          className="rounded-md border border-amber-400/50 bg-amber-400/10 p-3 text-sm text-amber-100"
        >
          {notice}
        </p>
      )}
      <Field label="Username" error={errors.username?.message}>
        {(control) => <Input {...control} autoComplete="username" {...register('username')} />}
      </Field>
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
      <p className="-mt-2 text-right text-sm">
        <Link
          href="/reset-password"
          className="inline-block rounded-sm py-0.5 text-accent underline underline-offset-4 hover:text-accent-strong"
        >
          Forgot password?
        </Link>
      </p>
      <Button type="submit" size="lg" className="w-full" disabled={login.isPending}>
        <LogIn aria-hidden="true" />
        {login.isPending ? 'LOGGING IN...' : 'LOGIN'}
      </Button>
    </form>
  );
}
