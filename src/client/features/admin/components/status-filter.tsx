import { useId } from 'react';
import { Label } from '#client/components/ui/label.tsx';
import { NativeSelect } from '#client/components/ui/native-select.tsx';

export interface StatusFilterProps<T extends string> {
  label: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange: (value: T) => void;
}

/** A labelled status picker above a queue. */
export function StatusFilter<T extends string>({
  label,
  value,
  options,
  onChange,
}: StatusFilterProps<T>) {
  const id = useId();
  return (
    <div className="flex flex-col gap-1.5 sm:flex-row sm:items-center sm:gap-3">
      <Label htmlFor={id} className="shrink-0">
        {label}
      </Label>
      <div className="sm:w-48">
        <NativeSelect
          id={id}
          value={value}
          onChange={(event) => {
            const next = options.find((option) => option.value === event.currentTarget.value);
            if (next) onChange(next.value);
          }}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </NativeSelect>
      </div>
    </div>
  );
}
