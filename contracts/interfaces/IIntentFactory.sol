// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {Intent, Recovery} from "./IntentTypes.sol";

/// @title Deploys intent accounts at addresses that commit to their intent.
interface IIntentFactory {
    /// @notice A new account was deployed for `intentHash`.
    event IntentDeployed(bytes32 indexed intentHash, address indexed account);

    /// @notice The one IntentAccount implementation every clone delegates to (created by this factory).
    /// @return The implementation address.
    function implementation() external view returns (address);

    /// @notice The intent hash, including the version tag and this factory's address.
    /// @param intent The intent.
    /// @return The hash that the account address commits to.
    function hashIntent(Intent calldata intent) external view returns (bytes32);

    /// @notice The address of the account for `intentHash`, deployed or not.
    /// @param intentHash The intent hash.
    /// @return The account address.
    function predict(bytes32 intentHash) external view returns (address);

    /// @notice Deploys the account for `intent` unless it already exists.
    /// @param intent The intent.
    /// @return account The account address.
    function deploy(Intent calldata intent) external returns (address account);

    /// @notice Deploys the account if needed, then executes it with the caller as executor.
    /// @param intent The intent.
    /// @param authData See IIntentAccount.execute.
    /// @return account The account address.
    function deployIfNeededAndExecute(Intent calldata intent, bytes calldata authData)
        external
        returns (address account);

    /// @notice Deploys the account if needed, then refunds it with the caller as the refund requester.
    /// @param intent The intent.
    /// @param tokens See IIntentAccount.refund.
    /// @param native See IIntentAccount.refund.
    /// @return account The account address.
    function deployIfNeededAndRefund(Intent calldata intent, address[] calldata tokens, bool native)
        external
        returns (address account);

    /// @notice Deploys the account if needed, then runs the owner's signed recovery with the caller as sender.
    /// @param intent The intent.
    /// @param recovery See IIntentAccount.recover.
    /// @param fee See IIntentAccount.recover.
    /// @param signature See IIntentAccount.recover.
    /// @return account The account address.
    function deployIfNeededAndRecover(
        Intent calldata intent,
        Recovery calldata recovery,
        uint256 fee,
        bytes calldata signature
    ) external returns (address account);
}
