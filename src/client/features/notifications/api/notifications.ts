import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MarkReadBody, NotificationList } from '#shared/contracts/notifications.ts';
import { getJson, postJson } from '#client/lib/api-client.ts';

// The contracts load with the first call: the bell is on every signed-in page's first frame.
async function loadListSchema() {
  return (await import('#shared/contracts/notifications.ts')).notificationListSchema;
}

async function loadUnreadSchema() {
  const { notificationListSchema } = await import('#shared/contracts/notifications.ts');
  return notificationListSchema.pick({ unread: true });
}

export const notificationsQueryKey = ['notifications'] as const;

export const notificationsQueryOptions = queryOptions({
  queryKey: notificationsQueryKey,
  queryFn: ({ signal }): Promise<NotificationList> =>
    getJson('/api/notifications?limit=20', loadListSchema, signal),
});

/** The player's newest notifications and how many are unread (docs/fair-play.md). */
export function useNotifications() {
  return useQuery(notificationsQueryOptions);
}

export function useMarkNotificationsRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: MarkReadBody) => postJson('/api/notifications/read', body, loadUnreadSchema),
    onSuccess: () => void queryClient.invalidateQueries({ queryKey: notificationsQueryKey }),
  });
}
