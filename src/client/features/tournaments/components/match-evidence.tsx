import { useState, type FormEvent } from 'react';
import { Button } from '#client/components/ui/button.tsx';
import { Field } from '#client/components/ui/field.tsx';
import { Textarea } from '#client/components/ui/textarea.tsx';
import { useAddMatchEvidence, useMatchEvidence } from '../api/match-evidence.ts';

/** A disputed match's evidence, both sides', with a player's form to add theirs. */
export function MatchEvidence({
  tournamentId,
  matchId,
  canAdd,
}: {
  tournamentId: number;
  matchId: number;
  canAdd: boolean;
}) {
  const evidence = useMatchEvidence(tournamentId, matchId);
  const add = useAddMatchEvidence(tournamentId, matchId);
  const [statement, setStatement] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    add.mutate({ statement, file }, { onSuccess: () => setStatement('') });
  };
  return (
    <div className="space-y-3">
      {evidence.data && evidence.data.length > 0 && (
        <ul className="space-y-2 text-sm text-slate-200" aria-label="Evidence">
          {evidence.data.map((item) => (
            <li key={item.id} className="rounded-lg border border-ink-700 bg-ink-900/60 p-3">
              <span className="font-semibold">{item.username}:</span> {item.statement}
              {item.file && (
                <>
                  {' '}
                  <a className="text-accent underline" href={item.file.url}>
                    {item.file.name}
                  </a>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
      {canAdd && (
        <form onSubmit={submit} aria-label="Add evidence" className="space-y-3">
          <Field label="Your statement" hint="Up to 2,000 characters">
            {(control) => (
              <Textarea
                {...control}
                maxLength={2000}
                value={statement}
                onChange={(e) => setStatement(e.target.value)}
              />
            )}
          </Field>
          <Field label="A picture or video (optional)">
            {(control) => (
              <input
                {...control}
                type="file"
                accept="image/*,video/mp4,video/webm"
                className="block text-sm text-slate-300"
                onChange={(e) => setFile(e.target.files?.[0] ?? null)}
              />
            )}
          </Field>
          <Button type="submit" variant="outline" disabled={add.isPending}>
            ADD EVIDENCE
          </Button>
        </form>
      )}
    </div>
  );
}
