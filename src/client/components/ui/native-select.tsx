import type { ComponentProps } from 'react';
import { ChevronDown } from 'lucide-react';
import { cn } from '#client/lib/cn.ts';
import { inputClasses } from './input-classes.ts';

/** A styled native <select>: short option lists read best with the platform's own picker. */
export function NativeSelect({ className, children, ...props }: ComponentProps<'select'>) {
  return (
    <div className="relative">
      <select
        className={cn(inputClasses, 'cursor-pointer appearance-none pr-10', className)}
        {...props}
      >
        {children}
      </select>
      <ChevronDown
        aria-hidden="true"
        className="pointer-events-none absolute top-1/2 right-3 size-4 -translate-y-1/2 text-slate-400"
      />
    </div>
  );
}
