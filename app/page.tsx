import { redirect } from "next/navigation";
import { requirePageUser } from "@/lib/auth/current-user";

export default async function Home() {
  const user = await requirePageUser("view");
  redirect(user.role === "annotator" ? "/task" : "/events");
}
