import { fromPromise } from 'xstate';
import { applyMachine, followMachine, unfollowMachine, type ApplyForm, type FollowRequest, type UnfollowRequest } from '../../machines/copyMachines.ts';
import { applicationOfFrame, COPY_PATHS, type CopyApplication, type CopyFollow } from '../../protocol/copy.ts';
import { row } from './row.ts';

/** Copy trading's follow dialog (src/ui/screens/copy). */
export const copyFollow = row({
  logic: ({ api }) =>
    followMachine.provide({
      actors: { follow: fromPromise<CopyFollow, FollowRequest>(({ input, signal }) => api.post<CopyFollow>(COPY_PATHS.follow, input, { signal })) },
    }),
});

/** Copy trading's unfollow dialog. */
export const copyUnfollow = row({
  logic: ({ api }) =>
    unfollowMachine.provide({
      actors: { unfollow: fromPromise<CopyFollow, UnfollowRequest>(({ input, signal }) => api.post<CopyFollow>(COPY_PATHS.unfollow, input, { signal })) },
    }),
});

/** The 'become a lead trader' application. */
export const copyApply = row({
  logic: ({ api }) =>
    applyMachine.provide({
      actors: {
        fetchApplication: fromPromise<CopyApplication | null>(({ signal }) => api.get<CopyApplication | null>(COPY_PATHS.apply, undefined, signal)),
        apply: fromPromise<CopyApplication, ApplyForm>(({ input, signal }) => api.post<CopyApplication>(COPY_PATHS.apply, input, { signal })),
      },
    }),
  follow: (a, f) => {
    const application = applicationOfFrame(f);
    if (application) a.send({ type: 'apply.frame', application });
  },
});
