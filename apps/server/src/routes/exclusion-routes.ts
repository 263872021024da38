import {
  deleteExclusion,
  exclusionClientList,
  exclusionSkuList,
  getExclusionByID,
  getExclusionList,
  upsertExclusion,
} from "@varia/contracts";
import type { FastifyInstance } from "fastify";
import { dataChanged } from "../analytics/cube-cache";
import { AppError } from "../errors";
import { registerContract } from "../http/contract-route";
import type { AppDeps } from "../http/deps";
import {
  deleteExclusionList,
  findExclusionList,
  listExclusionLists,
  pickClients,
  pickItems,
  saveExclusionList,
} from "../settings/exclusion-lists";

/**
 * Exclusion (docs/settings.md): the lists of clients and items left out of every number. A change counts from
 * the next call on: the cube cache reads the lists again (docs/settings.md).
 */
export async function exclusionRoutes(app: FastifyInstance, deps: AppDeps) {
  const { db } = deps;

  registerContract(app, deps, getExclusionList, ({ auth }) => listExclusionLists(db, auth!.organisation.id));

  registerContract(app, deps, getExclusionByID, async ({ auth, query }) => {
    const list = await findExclusionList(db, auth!.organisation.id, query.exclusionID);
    if (!list) throw new AppError("NotFound", "No such exclusion list");
    return list;
  });

  registerContract(app, deps, exclusionClientList, ({ auth, body }) =>
    pickClients(db, auth!.organisation.id, body),
  );
  registerContract(app, deps, exclusionSkuList, ({ auth, body }) =>
    pickItems(db, auth!.organisation.id, body),
  );

  registerContract(app, deps, upsertExclusion, async ({ auth, body, request }) => {
    const organisationId = auth!.organisation.id;
    const listId = await saveExclusionList(db, organisationId, body, deps.now());
    dataChanged(db, organisationId);
    request.log.info(
      { exclusionList: listId, user: auth!.user.id, active: body.active },
      "exclusion list saved",
    );
    return (await findExclusionList(db, organisationId, listId))!;
  });

  registerContract(app, deps, deleteExclusion, async ({ auth, query, request }) => {
    const organisationId = auth!.organisation.id;
    if (!(await deleteExclusionList(db, organisationId, query.exclusionID)))
      throw new AppError("NotFound", "No such exclusion list");
    dataChanged(db, organisationId);
    request.log.info({ exclusionList: query.exclusionID, user: auth!.user.id }, "exclusion list deleted");
  });
}
