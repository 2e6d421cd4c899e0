import '#shared/validation.ts';
