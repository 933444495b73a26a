import Foundation
#if canImport(os)
import os
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Bionic)
import Bionic
#endif

/// A value guarded by a lock, for the little shared mutable state EndpointKit keeps.
///
/// The value and the lock live in one allocation. `NSLock` costs four on Linux (the object, its
/// mutex, and a condition and mutex for timed waits), and a call makes one of these for its
/// timeout: the lock is the platform's own, kept beside the value.
///
/// A struct that refers to its storage: copies share the value and the lock.
package struct Locked<Value: Sendable>: @unchecked Sendable {
    // `storage` holds the value as its header and the lock as its one element; every access to
    // the value holds the lock.
    private let storage: Storage

    package init(_ value: Value) {
        storage = Storage.make(value)
    }

    /// Reads or replaces the value while holding the lock.
    package var value: Value {
        get { withLock { $0 } }
        nonmutating set { withLock { $0 = newValue } }
    }

    /// Changes the value in place while holding the lock, returning what `body` returns.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { value, lock in
            Self.lock(lock)
            defer { Self.unlock(lock) }
            return try body(&value.pointee)
        }
    }

    private final class Storage: ManagedBuffer<Value, Primitive> {
        static func make(_ value: Value) -> Storage {
            let buffer = create(minimumCapacity: 1) { _ in value }
            let storage = unsafeDowncast(buffer, to: Storage.self)
            storage.withUnsafeMutablePointerToElements { Locked.initialize($0) }
            return storage
        }

        deinit {
            // ManagedBuffer destroys the header (the value) itself; the element is ours to destroy.
            withUnsafeMutablePointerToElements { Locked.destroy($0) }
        }
    }

    // MARK: - The platform's lock
    // Apple platforms have `os_unfair_lock` (iOS 10, macOS 10.12); Linux (Glibc, Musl) and Android
    // (Bionic) have pthread mutexes; anything else keeps an `NSLock`.

    #if canImport(os)
    private typealias Primitive = os_unfair_lock
    private static func initialize(_ lock: UnsafeMutablePointer<Primitive>) { lock.initialize(to: os_unfair_lock()) }
    private static func lock(_ lock: UnsafeMutablePointer<Primitive>) { os_unfair_lock_lock(lock) }
    private static func unlock(_ lock: UnsafeMutablePointer<Primitive>) { os_unfair_lock_unlock(lock) }
    private static func destroy(_ lock: UnsafeMutablePointer<Primitive>) { lock.deinitialize(count: 1) }
    #elseif canImport(Glibc) || canImport(Musl) || canImport(Bionic)
    private typealias Primitive = pthread_mutex_t
    private static func initialize(_ lock: UnsafeMutablePointer<Primitive>) {
        lock.initialize(to: pthread_mutex_t())
        pthread_mutex_init(lock, nil)
    }
    private static func lock(_ lock: UnsafeMutablePointer<Primitive>) { pthread_mutex_lock(lock) }
    private static func unlock(_ lock: UnsafeMutablePointer<Primitive>) { pthread_mutex_unlock(lock) }
    private static func destroy(_ lock: UnsafeMutablePointer<Primitive>) {
        pthread_mutex_destroy(lock)
        lock.deinitialize(count: 1)
    }
    #else
    private typealias Primitive = NSLock
    private static func initialize(_ lock: UnsafeMutablePointer<Primitive>) { lock.initialize(to: NSLock()) }
    private static func lock(_ lock: UnsafeMutablePointer<Primitive>) { lock.pointee.lock() }
    private static func unlock(_ lock: UnsafeMutablePointer<Primitive>) { lock.pointee.unlock() }
    private static func destroy(_ lock: UnsafeMutablePointer<Primitive>) { lock.deinitialize(count: 1) }
    #endif
}
