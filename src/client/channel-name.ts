/** The BroadcastChannel on which every change of one endpoint's session is told. */
export const channelName = (sessionUrl: string): string => 'latchkey:' + sessionUrl
