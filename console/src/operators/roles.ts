/**
 * What each role may do, in the words the team list and the invite form use: the role's name
 * alone says little to the owner choosing it.
 * @example ROLE_LABELS.agent // 'Agent — answers conversations of their sites'
 */
export const ROLE_LABELS = {
  owner: 'Owner — sites, operators and settings',
  agent: 'Agent — answers conversations of their sites',
} as const;
