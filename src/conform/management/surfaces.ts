// The surfaces that can set things up, in the order a check taking any of them prefers (issue 35).
export const MANAGEMENT_SURFACES = ['restV2', 'restV1', 'graphql'] as const;
export type ManagementSurface = (typeof MANAGEMENT_SURFACES)[number];
