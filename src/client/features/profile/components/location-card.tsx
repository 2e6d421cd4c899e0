import { useId, useState, type FormEvent } from 'react';
import { MapPin } from 'lucide-react';
import type { PublicUser } from '#shared/contracts/auth.ts';
import { isStateCode, LOCATION_MESSAGES, stateName, US_STATES } from '#shared/us-states.ts';
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
import { useProfileConfig } from '../api/get-profile-config.ts';
import { useUpdateState } from '../api/update-state.ts';

/**
 * The US state the player plays from (docs/responsible-play.md). Moving into a state where cash
 * play is not offered is allowed; the card then says what stops and what does not (withdrawals).
 */
export function LocationCard({ user }: { user: PublicUser }) {
  const titleId = useId();
  const config = useProfileConfig();
  const updateState = useUpdateState();
  const [choice, setChoice] = useState(user.state ?? '');
  const [error, setError] = useState<string>();
  const current = user.state !== null && isStateCode(user.state) ? user.state : null;
  const excluded = current !== null && config.data?.excludedStates.includes(current) === true;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    // The button stays enabled while saving, so that it keeps the keyboard focus.
    if (updateState.isPending) return;
    if (!isStateCode(choice)) {
      setError(LOCATION_MESSAGES.stateRequired);
      return;
    }
    setError(undefined);
    updateState.mutate(choice, {
      onError: (failure) =>
        setError(
          failure instanceof ApiError
            ? (failure.fields?.state ?? serverText(failure))
            : failure.message,
        ),
    });
  };

  return (
    <Card aria-labelledby={titleId}>
      <CardHeader>
        <CardTitle id={titleId}>Location</CardTitle>
        <CardDescription>
          {current
            ? `You play from ${stateName(current)}.`
            : 'Tell us which US state you play from.'}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {excluded && current && (
          <p
            role="status"
            className="rounded-md border border-amber-400/50 bg-amber-400/10 p-3 text-sm text-amber-100"
          >
            {LOCATION_MESSAGES.notAvailableIn(stateName(current))} Deposits, new challenges and
            acceptances are paused; you can still withdraw your available money.
          </p>
        )}
        <form noValidate onSubmit={onSubmit} className="space-y-4">
          <Field label="State" error={error}>
            {(control) => (
              <NativeSelect
                {...control}
                name="state"
                autoComplete="address-level1"
                value={choice}
                onChange={(event) => setChoice(event.target.value)}
              >
                <option value="">Select your state</option>
                {US_STATES.map((state) => (
                  <option key={state.code} value={state.code}>
                    {state.name}
                  </option>
                ))}
              </NativeSelect>
            )}
          </Field>
          <Button type="submit" variant="outline">
            <MapPin aria-hidden="true" />
            {updateState.isPending ? 'SAVING...' : 'SAVE STATE'}
          </Button>
        </form>
      </CardContent>
    </Card>
  );
}
