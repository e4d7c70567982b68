// Development builds only (vite.config.ts resolves the views' '@xstate/react' to this file while serving): the same
// hooks, with every actor made by useActorRef registered for the inspect panel (actor-inspection.ts).
import { useActorRef as useActorRefOriginal } from '@xstate/react';
import { useEffect } from 'react';
import type { AnyActorLogic } from 'xstate';
import { registerActor } from './actor-inspection';

export * from '@xstate/react';

export const useActorRef: typeof useActorRefOriginal = (logic, ...rest) => {
  const actor = useActorRefOriginal(logic, ...rest);
  const name = (logic as AnyActorLogic & { id?: string }).id ?? 'actor';
  useEffect(() => registerActor(name, actor), [name, actor]);
  return actor;
};
