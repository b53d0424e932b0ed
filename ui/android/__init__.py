"""Android packaging: USB intent filters and the app's entry point for buildozer."""
