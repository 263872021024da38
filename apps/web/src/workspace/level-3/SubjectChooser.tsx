import { useNavigate } from "react-router";
import { LookupPicker } from "../../ui/LookupPicker";
import { searchClients, searchItems, searchSalespeople } from "../filters/lookups";
import { type ViewFilter, viewHref, viewPaths } from "../filters/view-filter";

/** Level 3 with no subject in its address: pick a client, a service or a salesperson to see. */
export function SubjectChooser({ filter }: { filter: ViewFilter }) {
  const navigate = useNavigate();
  const open = (changes: Partial<ViewFilter>) =>
    navigate(viewHref(viewPaths.level3, filter, { thirdClientID: null, thirdStockItemID: null, ...changes }));
  return (
    <div className="subject-chooser card">
      <h2>Which client, service or salesperson?</h2>
      <p>
        Level 3 shows one client, service or salesperson: its MRR in both months, its rank and share, how it
        moved and its lines. Open one from a list of level 1 or 2, or pick one here.
      </p>
      <div className="subject-chooser__pickers">
        <LookupPicker
          label="Client"
          search={searchClients}
          value={null}
          onChange={(o) => o && open({ thirdClientID: o.key })}
        />
        <LookupPicker
          label="Service"
          search={searchItems}
          value={null}
          onChange={(o) => o && open({ thirdStockItemID: o.key })}
        />
        <LookupPicker
          label="Salesperson"
          search={searchSalespeople}
          value={null}
          onChange={(o) => o && open({ salespersonID: o.key, salesperson: o.label })}
        />
      </div>
    </div>
  );
}
