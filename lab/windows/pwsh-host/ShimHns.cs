// PlayHns.NativeMethods: the type our HNS functions (tasks/windows/remote/ps-hns.ts) declare with Add-Type
// over vmcompute.dll's HNSCall when it is missing. Here it exists, so Add-Type is never reached, and
// each call goes to the node's HNS model with the same method, path and JSON request, and returns
// the same JSON response text ({"Success":..,"Output"|"Error":..}) the real API returns.
namespace PlayHns;

public static class NativeMethods
{
    public static void HNSCall(string method, string path, string request, out string response)
    {
        response = (string)PlayPwshHost.Callback.Invoke("Hns.Call", PlayPwshHost.Callback.Args("method", method, "path", path, "request", request ?? ""));
    }
}
