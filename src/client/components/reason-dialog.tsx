import { useState, type ReactElement, type ReactNode } from 'react';
import { useForm, type DefaultValues, type FieldValues, type Path } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import type { LucideIcon } from 'lucide-react';
import type { z } from '#shared/validation.ts';
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
import { Textarea } from '#client/components/ui/textarea.tsx';
import { applyServerFieldErrors } from '#client/lib/form-errors.ts';

/** One field of a reason dialog: the reason itself (text), or a moment (a suspension's end). */
export interface ReasonField<Values extends FieldValues> {
  name: Path<Values>;
  label: string;
  hint?: string;
  /** An example of what to write, shown while the field is empty. */
  placeholder?: string;
  kind?: 'text' | 'datetime-local';
  rows?: number;
}

/** What the dialog's submit calls: the mutation, told how to end (close) or fail (show why). */
export type ReasonSubmit<Output> = (
  values: Output,
  callbacks: { onSuccess: () => void; onError: (error: unknown) => void },
) => void;

export interface ReasonDialogProps<Values extends FieldValues, Output> {
  /** The button that opens the dialog. */
  trigger: ReactElement;
  title: ReactNode;
  description: ReactNode;
  /** The form's rules: the contract's schema for the body, or the form's view of it. */
  schema: z.ZodType<Output, Values>;
  defaultValues: DefaultValues<Values>;
  fields: readonly ReasonField<Values>[];
  submit: {
    label: string;
    pendingLabel: string;
    icon: LucideIcon;
    variant?: 'destructive' | 'primary';
  };
  pending: boolean;
  onSubmit: ReasonSubmit<Output>;
}

/**
 * A dialog that asks for a reason before an action that affects someone (a dispute, a report, a
 * suspension, a failed payout, a report's resolution): the fields in the contract's words,
 * errors under each (the schema's here, the server's when it refuses), closed once it is done.
 */
export function ReasonDialog<Values extends FieldValues, Output>(
  props: ReasonDialogProps<Values, Output>,
) {
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>{props.trigger}</DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{props.title}</DialogTitle>
          <DialogDescription>{props.description}</DialogDescription>
        </DialogHeader>
        <ReasonForm {...props} onDone={() => setOpen(false)} />
      </DialogContent>
    </Dialog>
  );
}

function ReasonForm<Values extends FieldValues, Output>({
  schema,
  defaultValues,
  fields,
  submit,
  pending,
  onSubmit,
  onDone,
}: ReasonDialogProps<Values, Output> & { onDone: () => void }) {
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<Values, unknown, Output>({
    resolver: zodResolver(schema),
    defaultValues,
  });
  const names = fields.map((field) => field.name);
  const send = handleSubmit((values) =>
    onSubmit(values, {
      onSuccess: onDone,
      onError: (error) => applyServerFieldErrors(error, setError, names),
    }),
  );
  const Icon = submit.icon;
  return (
    <form noValidate onSubmit={(event) => void send(event)} className="space-y-5">
      {fields.map((field) => {
        const error = errors[field.name]?.message;
        return (
          <Field
            key={field.name}
            label={field.label}
            error={typeof error === 'string' ? error : undefined}
            {...(field.hint ? { hint: field.hint } : {})}
          >
            {(control) =>
              field.kind === 'datetime-local' ? (
                <Input {...control} type="datetime-local" {...register(field.name)} />
              ) : (
                <Textarea
                  {...control}
                  rows={field.rows ?? 3}
                  placeholder={field.placeholder}
                  {...register(field.name)}
                />
              )
            }
          </Field>
        );
      })}
      <Button
        type="submit"
        variant={submit.variant ?? 'destructive'}
        size="lg"
        className="w-full"
        disabled={pending}
      >
        <Icon aria-hidden="true" />
        {pending ? submit.pendingLabel : submit.label}
      </Button>
    </form>
  );
}
