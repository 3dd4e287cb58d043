// The native side of {{name}}: it creates the Lua context that runs the modules in Sources/,
// and shows the view controller class that module {{startModule}} returns.
//
// A sketch against flowpkg's host libraries: FlowRuntime (the Lua context, which finds and
// reads the exported package) and, in debug builds only, FlowLiveDevelopment (the development
// monitor, through which `flowpkg serve` updates code while the app runs). Check the names
// against the versions you link; the shape stays the same.

import UIKit
import FlowRuntime
#if DEBUG
import FlowLiveDevelopment
#endif

@main
final class AppDelegate: UIResponder, UIApplicationDelegate {
    var window: UIWindow?
    private var luaContext: LuaContext?
    #if DEBUG
    private var developmentMonitor: DevelopmentMonitor?
    #endif

    func application(_ application: UIApplication,
                     didFinishLaunchingWithOptions launchOptions: [UIApplication.LaunchOptionsKey: Any]?) -> Bool {
        // The identifier selects this app's package among the .luapkg files in the bundle: it
        // is "identifier" in flowpkg.json, and `flowpkg export` writes it into the package.
        let context = LuaContext(name: "{{name}}", packageIdentifier: "{{identifier}}",
                                 packageDirectories: [Bundle.main.resourceURL!])
        luaContext = context

        #if DEBUG
        // Debug builds only: wait up to 5 seconds for `flowpkg serve` on the Mac, whose files
        // then take priority over the embedded package. A release build has no monitor at all,
        // so nothing outside the app can reach its Lua context.
        developmentMonitor = DevelopmentMonitor(context: context,
                                                server: URL(string: "http://192.168.1.10:7315")!,
                                                token: ProcessInfo.processInfo.environment["FLOWPKG_TOKEN"] ?? "",
                                                connectionTimeout: 5)
        #endif

        let window = UIWindow(frame: UIScreen.main.bounds)
        window.backgroundColor = .white
        self.window = window

        // Called once the module has run, and again each time it is reloaded during development,
        // so the new class replaces the old controller on screen.
        context.loadModule("{{startModule}}") { result in
            if let controllerClass = result as? UIViewController.Type {
                window.rootViewController = controllerClass.init()
            }
        }

        window.makeKeyAndVisible()
        return true
    }

    func applicationWillTerminate(_ application: UIApplication) {
        luaContext?.terminate()
    }
}
