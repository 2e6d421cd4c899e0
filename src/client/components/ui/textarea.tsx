import type { ComponentProps } from 'react';
import { cn } from '#client/lib/cn.ts';
import { inputClasses } from './input.tsx';

export function Textarea({ className, rows = 3, ...props }: ComponentProps<'textarea'>) {
  return (
    <textarea
      rows={rows}
      className={cn(inputClasses, 'h-auto resize-y py-2', className)}
      {...props}
    />
  );
}
