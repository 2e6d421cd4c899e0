import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { UserPlus } from 'lucide-react';
import { Button } from '#client/components/ui/button.tsx';
import { Field, FieldError } from '#client/components/ui/field.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { Label } from '#client/components/ui/label.tsx';
import { NativeSelect } from '#client/components/ui/native-select.tsx';
import { US_STATES } from '#shared/us-states.ts';
import { applyServerFieldErrors } from '#client/lib/form-errors.ts';
import { lazyZodResolver } from '#client/lib/lazy-zod-resolver.ts';
import { useRegister } from '../api/register.ts';

const FIELD_NAMES = ['username', 'password', 'phoneNumber', 'email', 'state', 'isOver18'] as const;

async function loadRegisterSchema() {
  return (await import('#shared/contracts/auth.ts')).registerFormSchema;
}

const resolver = lazyZodResolver(loadRegisterSchema);

export function RegisterForm() {
  const registration = useRegister();
  const ageId = useId();
  const ageErrorId = `${ageId}-error`;
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm({
    resolver,
    defaultValues: { username: '', password: '', phoneNumber: '', email: '' },
  });

  const onSubmit = handleSubmit((values) => {
    registration.mutate(values, {
      onError: (error) => applyServerFieldErrors(error, setError, FIELD_NAMES),
    });
  });

  return (
    <form
      noValidate
      onSubmit={(event) => void onSubmit(event)}
      // A failed download here is tried again by the first check.
      onFocus={() => void loadRegisterSchema().catch(() => undefined)}
      className="space-y-5"
    >
      <Field
        label="Username"
        error={errors.username?.message}
        hint="3-30 letters, numbers or underscores"
      >
        {(control) => <Input {...control} autoComplete="username" {...register('username')} />}
      </Field>
      <Field label="Password" error={errors.password?.message} hint="At least 6 characters">
        {(control) => (
          <Input
            {...control}
            type="password"
            autoComplete="new-password"
            {...register('password')}
          />
        )}
      </Field>
      <Field label="Phone Number" error={errors.phoneNumber?.message}>
        {(control) => (
          <Input
            {...control}
            type="tel"
            inputMode="tel"
            autoComplete="tel"
            placeholder="+1 555 123 4567"
            {...register('phoneNumber')}
          />
        )}
      </Field>
      <Field label="Email (optional)" error={errors.email?.message}>
        {(control) => (
          <Input {...control} type="email" autoComplete="email" {...register('email')} />
        )}
      </Field>
      <Field
        label="State"
        error={errors.state?.message}
        hint="Where you play from: cash play is not offered in every state"
      >
        {(control) => (
          <NativeSelect {...control} autoComplete="address-level1" {...register('state')}>
            <option value="">Select your state</option>
            {US_STATES.map((state) => (
              <option key={state.code} value={state.code}>
                {state.name}
              </option>
            ))}
          </NativeSelect>
        )}
      </Field>
      <div className="space-y-1.5">
        <div className="flex items-start gap-3 rounded-md border border-ink-700 bg-ink-900/60 p-3">
          <input
            id={ageId}
            type="checkbox"
            aria-invalid={Boolean(errors.isOver18)}
            aria-describedby={errors.isOver18 ? ageErrorId : undefined}
            className="mt-0.5 size-5 shrink-0 cursor-pointer accent-(--accent)"
            {...register('isOver18')}
          />
          <Label htmlFor={ageId} className="cursor-pointer leading-snug font-normal text-slate-200">
            I confirm I am 21 or older and in a permitted location
          </Label>
        </div>
        {errors.isOver18?.message && (
          <FieldError id={ageErrorId}>{errors.isOver18.message}</FieldError>
        )}
      </div>
      <Button type="submit" size="lg" className="w-full" disabled={registration.isPending}>
        <UserPlus aria-hidden="true" />
        {registration.isPending ? 'CREATING ACCOUNT...' : 'CREATE ACCOUNT'}
      </Button>
    </form>
  );
}
