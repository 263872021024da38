import { AppDialog } from "../ui/Dialog";
import { PopupContext } from "./workspace-actors";

/** Shows the pop-up queue's current pop-up (one at a time) as an alert dialog. */
export function PopupHost() {
  const current = PopupContext.useSelector((s) => s.context.current);
  const popups = PopupContext.useActorRef();
  if (!current) return null;
  const close = () => popups.send({ type: "popup.close" });
  return (
    <AppDialog key={current.id} title={current.title} role="alertdialog" size="small" onClose={close}>
      {current.body ? <p>{current.body}</p> : null}
      <div className="dialog__actions">
        <button type="button" className="button button--primary" onClick={close}>
          Ok
        </button>
      </div>
    </AppDialog>
  );
}
