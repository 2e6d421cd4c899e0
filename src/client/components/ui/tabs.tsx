import type { ComponentProps } from 'react';
import { Tabs as TabsPrimitive } from 'radix-ui';
import { cn } from '#client/lib/cn.ts';

export const Tabs = TabsPrimitive.Root;

export function TabsList({ className, ...props }: ComponentProps<typeof TabsPrimitive.List>) {
  return (
    <TabsPrimitive.List
      className={cn(
        'grid auto-cols-fr grid-flow-col gap-1 rounded-lg border border-ink-700 bg-ink-900/90 p-1',
        className,
      )}
      {...props}
    />
  );
}

export function TabsTrigger({ className, ...props }: ComponentProps<typeof TabsPrimitive.Trigger>) {
  return (
    <TabsPrimitive.Trigger
      className={cn(
        'min-h-10 cursor-pointer rounded-md px-2 py-2 font-display text-[0.68rem] font-semibold tracking-wider text-slate-300 transition-colors hover:text-white sm:px-4 sm:text-xs',
        'data-[state=active]:bg-accent data-[state=active]:text-accent-contrast data-[state=active]:shadow-[0_0_20px_-6px_var(--accent-glow)]',
        className,
      )}
      {...props}
    />
  );
}

export function TabsContent({ className, ...props }: ComponentProps<typeof TabsPrimitive.Content>) {
  return (
    <TabsPrimitive.Content
      className={cn('mt-5 focus-visible:outline-offset-4', className)}
      {...props}
    />
  );
}
