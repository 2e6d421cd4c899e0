import { Spinner } from '#client/components/ui/spinner.tsx';

/** A deposit panel waiting for the server: the spinner with a line saying for what. */
export function PanelSpinner({ label, text }: { label: string; text?: string }) {
  return (
    <div className="flex flex-col items-center gap-3 py-10 text-center">
      <Spinner label={label} />
      {text && (
        <p className="font-display text-xs font-semibold tracking-widest text-slate-300">{text}</p>
      )}
    </div>
  );
}
