import CWaylandClient
import CWaylandCursor
import CXkbCommon
import CWaylandProtocols
enum WaylandClientPlaceholder { static let i = xdg_wm_base_interface }
