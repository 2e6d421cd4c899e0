import { bigint, customType, pgTable, timestamp } from 'drizzle-orm/pg-core';

const bytea = customType<{ data: Buffer }>({ dataType: () => 'bytea' });

/**
 * socket.io's PostgreSQL adapter passes large cross-instance messages through this table
 * (NOTIFY payloads are limited to 8 kB). Created by our migrations rather than by the adapter
 * at run time, so the app never needs DDL rights in production.
 */
export const socketIoAttachments = pgTable('socket_io_attachments', {
  id: bigint('id', { mode: 'bigint' }).primaryKey().generatedByDefaultAsIdentity(),
  createdAt: timestamp('created_at', { withTimezone: true }).defaultNow(),
  payload: bytea('payload'),
});
