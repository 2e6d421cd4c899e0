import { useForm } from 'react-hook-form';
import { Link } from 'wouter';
import { LogIn } from 'lucide-react';
import { Button } from '#client/components/ui/button.tsx';
import { Field } from '#client/components/ui/field.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { applyServerFieldErrors } from '#client/lib/form-errors.ts';
import { lazyZodResolver } from '#client/lib/lazy-zod-resolver.ts';
import { useLogin } from '../api/login.ts';

const FIELD_NAMES = ['username', 'password'] as const;

async function loadLoginSchema() {
  return (await import('#shared/contracts/auth.ts')).loginBodySchema;
}

const resolver = lazyZodResolver(loadLoginSchema);

export function LoginForm() {
  const login = useLogin();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({
    resolver,
    defaultValues: { username: '', password: '' },
  });

  const onSubmit = handleSubmit((values) => {
    login.mutate(values, {
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
