import { useState, type FormEvent } from 'react';
import {
  createTournamentBodySchema,
  TOURNAMENT_SIZES,
  type CreateTournamentBody,
} from '#shared/contracts/tournaments.ts';
import { CONSOLES } from '#shared/lobby.ts';
import { Button } from '#client/components/ui/button.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '#client/components/ui/card.tsx';
import { Field } from '#client/components/ui/field.tsx';
import { Input } from '#client/components/ui/input.tsx';
import { NativeSelect } from '#client/components/ui/native-select.tsx';
import { ApiError } from '#client/lib/api-client.ts';
import { useCreateTournament } from '../api/tournament-actions.ts';

interface FormValues {
  game: string;
  console: string;
  entryFee: string;
  size: string;
  startsAt: string;
  prizeSplit: string;
  allowByes: boolean;
}

type FieldName = keyof FormValues;

const INITIAL: FormValues = {
  game: '',
  console: '',
  entryFee: '',
  size: '8',
  startsAt: '',
  prizeSplit: '70, 30',
  allowByes: false,
};

/** The form's text as the API's body: numbers where they parse, the rest left for the schema. */
function toBody(values: FormValues): Record<string, unknown> {
  const number = (text: string) => (text.trim() === '' ? undefined : Number(text));
  const local = values.startsAt ? new Date(values.startsAt) : null;
  return {
    game: values.game,
    console: values.console,
    entryFee: number(values.entryFee),
    size: number(values.size),
    startsAt: local && !Number.isNaN(local.getTime()) ? local.toISOString() : values.startsAt,
    prizeSplit: values.prizeSplit
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)
      .map(Number),
    allowByes: values.allowByes,
  };
}

/**
 * An admin's tool (docs/tournaments.md): checked by the shared schema first, then by the server.
 */
export function CreateTournamentForm() {
  const [values, setValues] = useState(INITIAL);
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const create = useCreateTournament();
  const set = (name: FieldName) => (value: string | boolean) =>
    setValues((current) => ({ ...current, [name]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = createTournamentBodySchema.safeParse(toBody(values));
    if (!parsed.success) {
      const found: Partial<Record<FieldName, string>> = {};
      for (const issue of parsed.error.issues) {
        const name = issue.path[0];
        if (typeof name === 'string' && name in INITIAL && !found[name as FieldName])
          found[name as FieldName] = issue.message;
      }
      setErrors(found);
      return;
    }
    setErrors({});
    const body: CreateTournamentBody = parsed.data;
    create.mutate(body, {
      onSuccess: () => setValues(INITIAL),
      onError: (error) => {
        if (error instanceof ApiError && error.fields) setErrors(error.fields);
        else setErrors({ game: error.message });
      },
    });
  };

  return (
    <Card className="mb-8">
      <CardHeader>
        <CardTitle>Create a tournament</CardTitle>
      </CardHeader>
      <CardContent>
        <form
          noValidate
          onSubmit={submit}
          aria-label="Create a tournament"
          className="grid gap-4 sm:grid-cols-2"
        >
          <Field label="Game" error={errors.game}>
            {(control) => (
              <Input
                {...control}
                value={values.game}
                onChange={(e) => set('game')(e.target.value)}
              />
            )}
          </Field>
          <Field label="Console" error={errors.console}>
            {(control) => (
              <NativeSelect
                {...control}
                value={values.console}
                onChange={(e) => set('console')(e.target.value)}
              >
                <option value="">Choose a console</option>
                {CONSOLES.map((name) => (
                  <option key={name} value={name}>
                    {name}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
          <Field label="Entry fee ($)" error={errors.entryFee}>
            {(control) => (
              <Input
                {...control}
                inputMode="numeric"
                value={values.entryFee}
                onChange={(e) => set('entryFee')(e.target.value)}
              />
            )}
          </Field>
          <Field label="Players" error={errors.size}>
            {(control) => (
              <NativeSelect
                {...control}
                value={values.size}
                onChange={(e) => set('size')(e.target.value)}
              >
                {TOURNAMENT_SIZES.map((size) => (
                  <option key={size} value={size}>
                    {size}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
          <Field label="Starts at (your time)" error={errors.startsAt}>
            {(control) => (
              <Input
                {...control}
                type="datetime-local"
                value={values.startsAt}
                onChange={(e) => set('startsAt')(e.target.value)}
              />
            )}
          </Field>
          <Field
            label="Prize split by place (%)"
            hint="Whole percentages for 1st, 2nd, …, adding to 100"
            error={errors.prizeSplit}
          >
            {(control) => (
              <Input
                {...control}
                value={values.prizeSplit}
                onChange={(e) => set('prizeSplit')(e.target.value)}
              />
            )}
          </Field>
          <label className="flex items-center gap-2 text-sm text-slate-200 sm:col-span-2">
            <input
              type="checkbox"
              className="size-4 accent-current"
              checked={values.allowByes}
              onChange={(e) => set('allowByes')(e.target.checked)}
            />
            Start with byes when it is not full (at least two players)
          </label>
          <div className="sm:col-span-2">
            <Button type="submit" disabled={create.isPending}>
              CREATE TOURNAMENT
            </Button>
          </div>
        </form>
      </CardContent>
    </Card>
  );
}
