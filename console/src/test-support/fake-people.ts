import type { OverviewPeople, PeopleCounts } from '../state/contract.ts';

/** One group's people figures: nothing timed, nothing rated, unless `over` says otherwise. */
export function counts(over: Partial<PeopleCounts> = {}): PeopleCounts {
  return {
    firstResponses: 0,
    firstResponseP50S: null,
    firstResponseP90S: null,
    resolutions: 0,
    resolutionP50S: null,
    resolutionP90S: null,
    helpful: 0,
    notHelpful: 0,
    helpfulShare: null,
    ...over,
  };
}

/** The overview's people figures as `console.overview.series` answers them; empty by default. */
export function people(over: Partial<OverviewPeople> = {}): OverviewPeople {
  return { points: [], operators: [], sites: [], total: counts(), comments: [], commentCount: 0, ...over };
}
